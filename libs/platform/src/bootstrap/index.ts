export * from './handler-discovery';
export * from './logging.module';
export * from './service-platform.module';
export * from './start-service';
export * from './tokens';
export * from './operator-port';
export * from './graceful-stop';
