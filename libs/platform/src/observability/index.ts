export * from './after-commit';
export * from './http-observer';
export * from './metrics';
export * from './metrics.controller';
export * from './platform-metrics';
export * from './provider-calls';
export * from './queue-inspector';
export * from './tracing';
