export * from './ip-address';
export * from './in-front-of-express';
export * from './provider-door';
export * from './slow-client-timeouts';
