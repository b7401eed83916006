export * from './notifications.rpc';
export * from './push.rpc';
