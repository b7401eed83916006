export * from './notifications.rpc';
