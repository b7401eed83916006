import { enableInstrumentations, tracesEndpoint } from './tracing';

// Imported first by @esim/platform (src/index.ts), so that, when traces are exported, HTTP,
// Postgres and Redis are patched before any service module loads them. Nothing happens (and no
// SDK module is loaded) when no OTLP endpoint is configured.
if (tracesEndpoint(process.env)) enableInstrumentations();
