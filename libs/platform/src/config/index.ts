export * from './load-config';
export * from './platform-config';
export * from './broker-credentials';
export * from './backing-services';
