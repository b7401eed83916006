export * from './ip-address';
