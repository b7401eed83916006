export * from './plans';
export * from './locales';
