export * from './infrastructure';
export * from './mail-server';
export * from './namespace';
export * from './replica';
export * from './service-under-test';
export * from './tcp-proxy';
export * from './seeded-order';
