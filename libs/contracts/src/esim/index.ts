export * from './esim.rpc';
