export * from './identity.events';
export * from './identity.rpc';
export * from './recipient.rpc';
