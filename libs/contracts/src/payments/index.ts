export * from './payments.events';
export * from './payments.rpc';
export * from './purchase-esim.events';
