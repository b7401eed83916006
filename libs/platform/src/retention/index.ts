export * from './retention-sweeper';
export * from './inbox-retention';
