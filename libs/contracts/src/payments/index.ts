export * from './payments.events';
export * from './payments.rpc';
export * from './payments-admin.rpc';
export * from './operator.events';
export * from './purchase-receipt.events';
export * from './purchase-refund.events';
