export * from './event-definition';
