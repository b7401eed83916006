export * from './dead-letter-headers';
export * from './dead-letters';
