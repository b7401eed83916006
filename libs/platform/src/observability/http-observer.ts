import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { secondsSince } from './metrics';
import type { PlatformMetrics } from './platform-metrics';
import { contextFrom, serviceTracer, SpanKind, tracingEnabled } from './tracing';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route template a request matched (`/api/purchases/:id`), never its raw path: a label per
 * distinct URL would grow without bound. A request that no route matched is labelled by the
 * mount path of the middleware that answered it (`/webhooks/offerwalls/*`: the gateway's stream
 * to the ingestion service), or `*` (static files, the SPA, not found).
 */
export function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}` || '/';
  return req.baseUrl ? `${req.baseUrl}/*` : '*';
}

/**
 * First middleware of every process: times each HTTP request into
 * `http_request_duration_seconds{method,route,status}` and, when tracing is on, makes it the
 * server span of its trace (continuing a caller's `traceparent`), named by its route template.
 * `/metrics` itself is not counted, and health probes are not traced.
 */
export function httpObserver(service: string, metrics: PlatformMetrics): RequestHandler {
  const tracer = serviceTracer(service);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/metrics') return next();
    const started = process.hrtime.bigint();
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    // Probes are timed, not traced: a trace every few seconds per pod would bury the real ones.
    const parent = tracingEnabled() && !req.path.startsWith('/health/') ? contextFrom(req.headers) : undefined;
    const span = parent && tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': req.path } }, parent);
    res.once('close', () => {
      const route = routeOf(req);
      metrics.http.observe({ method, route, status: String(res.statusCode) }, secondsSince(started));
      if (!span) return;
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      const correlationId = res.getHeader('x-correlation-id') ?? req.headers['x-correlation-id'];
      if (typeof correlationId === 'string') span.setAttribute('correlation_id', correlationId);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    if (!span) return next();
    context.with(trace.setSpan(parent, span), next);
  };
}
