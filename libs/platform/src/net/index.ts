export * from './ip-address';
export * from './in-front-of-express';
