export * from './identity.events';
export * from './identity.rpc';
export * from './recipient.rpc';
export * from './identity-admin.rpc';
export * from './two-factor.rpc';
export * from './passkey.rpc';
export * from './public-display-name';
export * from './public-names.rpc';
