export * from './health.controller';
export * from './draining';
