export * from './admin-cursor';
export * from './operator-queue';
