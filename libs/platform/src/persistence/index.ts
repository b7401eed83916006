export * from './data-source';
export * from './messaging-tables.migration';
