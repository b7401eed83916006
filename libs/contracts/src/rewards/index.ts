export * from './offerwalls';
export * from './postbacks';
export * from './rewards.events';
export * from './rewards.rpc';
export * from './tasks';
