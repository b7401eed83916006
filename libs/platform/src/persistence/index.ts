export * from './data-source';
export * from './deleted-accounts.migration';
export * from './messaging-tables.migration';
export * from './group-commit';
export * from './late-write-guards';
export * from './postgres-errors';
export * from './prepared-statement';
export * from './service-roles';
