/* eslint-disable @typescript-eslint/no-require-imports -- the SDK is loaded only when tracing is on: no cost when off */
import { Context, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** W3C trace context as it travels in message headers (`traceparent`, `tracestate`). */
export type TraceHeaders = Record<string, string>;

export interface TracingHandle {
  /** Flushes what is buffered, then turns tracing off again (tests). */
  shutdown(): Promise<void>;
}

let state: { handle: TracingHandle; flush(): Promise<void> } | undefined;
let instrumentations: (() => void) | undefined;

/**
 * Where traces go, from the standard OpenTelemetry variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * as given, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. Unset (or OTEL_SDK_DISABLED=true):
 * tracing is off.
 */
export function tracesEndpoint(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.OTEL_SDK_DISABLED === 'true') return undefined;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** True once a tracer provider is installed (an OTLP endpoint is configured, or a test installed one). */
export function tracingEnabled(): boolean {
  return state !== undefined;
}

/**
 * Patches outgoing HTTP (node:http and fetch: the provider calls), Postgres and Redis so that
 * their calls become child spans of the request that made them. It must run before those
 * modules are loaded, so `@esim/platform` calls it first thing when an endpoint is configured
 * (observability/preload.ts); the tracer provider comes later, from startTracing, once the
 * service's name is known (instrumentations reach it through the global API). Only spans with a
 * parent are made: the relay's and BullMQ's polling would otherwise be a stream of root traces.
 * Incoming HTTP is left to the platform's own middleware, which knows the route template.
 */
export function enableInstrumentations(): void {
  if (instrumentations) return;
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  instrumentations = registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: () => true, requireParentforOutgoingSpans: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
}

export interface StartTracingOptions {
  /** The resource's `service.name` (one process is one service, except in the in-process test system). */
  service: string;
  env?: Record<string, string | undefined>;
  /** Spans go here instead of OTLP, each as it ends (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

/**
 * Installs the tracer provider when traces have somewhere to go: OTLP over HTTP (batched) when an
 * endpoint is configured, or the given exporter. Otherwise nothing is loaded or started, and the
 * platform's tracing calls stay on their no-op path. Once per process: later calls (every service
 * of the in-process test system) answer the first handle.
 */
export function startTracing(opts: StartTracingOptions): TracingHandle | undefined {
  if (state) return state.handle;
  const endpoint = opts.exporter ? undefined : tracesEndpoint(opts.env);
  if (!opts.exporter && !endpoint) return undefined;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { defaultResource, resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  let processor;
  if (opts.exporter) {
    processor = new SimpleSpanProcessor(opts.exporter);
  } else {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }));
    enableInstrumentations();
  }
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.env?.OTEL_SERVICE_NAME || opts.service })),
    spanProcessors: [processor],
  });
  // The global provider, AsyncLocalStorage context and W3C trace-context propagator.
  provider.register();
  const handle: TracingHandle = {
    async shutdown() {
      if (state?.handle !== handle) return;
      state = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  state = { handle, flush: () => provider.forceFlush() };
  return handle;
}

/** Sends what the batch holds now (a service shutting down); nothing when tracing is off. */
export async function flushTracing(): Promise<void> {
  await state?.flush().catch(() => undefined);
}

/** The tracer of one service: its spans are named by it (the instrumentation scope). */
export function serviceTracer(service: string): Tracer {
  return trace.getTracer(service);
}

/** The current trace context as message headers; undefined when tracing is off or nothing is traced. */
export function traceHeaders(ctx: Context = context.active()): TraceHeaders | undefined {
  if (!state) return undefined;
  const carrier: TraceHeaders = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The trace context carried by message headers (AMQP headers, HTTP headers), or none. */
export function contextFrom(headers: Record<string, unknown> | undefined | null): Context {
  if (!state || !headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers, {
    keys: (h) => Object.keys(h),
    get: (h, key) => {
      const v = h[key];
      if (v === undefined || v === null) return undefined;
      return Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
    },
  });
}

export interface SpanOptions {
  kind: SpanKind;
  parent?: Context;
  attributes?: Record<string, string | number | boolean | undefined>;
  /** Whether an error thrown by the work fails the span (default: any); an expected 4xx does not. */
  isFailure?: (err: unknown) => boolean;
}

/** An AppError (or its shape) for a 5xx, or anything that is not an AppError: a failure of ours, not the caller's. */
export function isServerError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return !(typeof code === 'string' && CLIENT_ERRORS.has(code));
}
const CLIENT_ERRORS = new Set(['validation', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'unprocessable', 'rate_limited']);

/**
 * Runs `work` inside a new span (ended when it settles, marked as an error when it throws), or
 * runs it as is when tracing is off (or `opts` is undefined).
 */
export async function inSpan<T>(tracer: Tracer, name: string, opts: SpanOptions | undefined, work: (span?: Span) => Promise<T>): Promise<T> {
  if (!state || !opts) return work();
  const parent = opts.parent ?? context.active();
  const span = tracer.startSpan(name, { kind: opts.kind, attributes: clean(opts.attributes) }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (err) {
    if (opts.isFailure?.(err) ?? true) failed(span, err);
    else span.setAttribute('error.type', String((err as { code?: unknown })?.code ?? 'error'));
    throw err;
  } finally {
    span.end();
  }
}

/** Marks a span as failed with the error's message. */
export function failed(span: Span | undefined, err: unknown): void {
  if (!span) return;
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err) });
}

/** The ids of the current span, for log lines; undefined when nothing is traced. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!state) return undefined;
  const ctx = trace.getSpan(context.active())?.spanContext();
  return ctx && trace.isSpanContextValid(ctx) ? { traceId: ctx.traceId, spanId: ctx.spanId } : undefined;
}

function clean(attributes: SpanOptions['attributes']): Record<string, string | number | boolean> | undefined {
  if (!attributes) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) out[k] = v;
  return out;
}

export { SpanKind };
