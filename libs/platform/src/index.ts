// First: with an OTLP endpoint configured, HTTP, Postgres and Redis must be patched before any module loads them.
import './observability/preload';
import 'reflect-metadata';

export * from './bootstrap';
export * from './config';
export * from './context';
export * from './dead-letters';
export * from './errors';
export * from './health';
export * from './logging';
export * from './messaging';
export * from './net';
export * from './observability';
export * from './persistence';
export * from './retention';
