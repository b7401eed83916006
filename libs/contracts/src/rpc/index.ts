export * from './rpc-definition';
