export * from './infrastructure';
export * from './mail-server';
export * from './namespace';
export * from './tcp-proxy';
