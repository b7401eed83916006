export * from './push.rpc';
