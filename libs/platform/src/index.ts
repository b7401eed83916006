import 'reflect-metadata';

export * from './bootstrap';
export * from './config';
export * from './context';
export * from './errors';
export * from './health';
export * from './logging';
export * from './messaging';
export * from './net';
export * from './persistence';
