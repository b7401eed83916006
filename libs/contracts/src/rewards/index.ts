export * from './held-credits';
export * from './redemptions';
export * from './rewards.events';
export * from './rewards.rpc';
export * from './tasks';
export * from './rewards-admin.rpc';
export * from './credit-claims';
export * from './referrals';
