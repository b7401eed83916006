export * from './auth.http';
export * from './user.http';
