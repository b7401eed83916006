export * from './catalogue';
export * from './esim';
export * from './events';
export * from './http';
export * from './identity';
export * from './rewards';
export * from './rpc';
