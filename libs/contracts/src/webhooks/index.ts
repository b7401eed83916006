export * from './offerwalls';
export * from './postbacks';
export * from './webhooks.events';
export * from './webhooks.rpc';
export * from './stripe';
