export * from './catalogue';
export * from './events';
export * from './http';
export * from './rpc';
