export * from './rewards.rpc';
