export * from './identity.events';
export * from './identity.rpc';
