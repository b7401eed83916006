export * from './admin-cursor';
export * from './esim-admin.rpc';
export * from './identity-admin.rpc';
export * from './operator-queue';
export * from './operator.events';
export * from './payments-admin.rpc';
export * from './rewards-admin.rpc';
