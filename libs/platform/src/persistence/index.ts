export * from './data-source';
export * from './messaging-tables.migration';
export * from './group-commit';
export * from './postgres-errors';
export * from './prepared-statement';
export * from './service-roles';
