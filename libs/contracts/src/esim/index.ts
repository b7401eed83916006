export * from './esim.events';
export * from './esim.rpc';
export * from './wallet.rpc';
export * from './iccid';
export * from './redemption-view';
export * from './purchase-esim.events';
export * from './esim-admin.rpc';
export * from './operator.events';
