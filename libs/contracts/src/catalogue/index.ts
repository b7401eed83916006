export * from './plans';
export * from './locales';
export * from './brand';
