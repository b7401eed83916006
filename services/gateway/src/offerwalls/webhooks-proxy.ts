import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Logger, type INestApplication } from '@nestjs/common';
import { expressClientIp, inFrontOfExpress, PlatformMetrics, RequestContext, secondsSince, tracingEnabled } from '@esim/platform';
import { clientIp } from '../common/client-ip';
import { SANDBOX_SIGNED_IN_USER_HEADER } from '@esim/contracts';
import { correlationIdOf } from '../http/request-context.middleware';

/** Ours, not the provider's (cookie, credentials), or meaningful for one hop only: never forwarded. */
const DROPPED = new Set([
  'cookie',
  'authorization',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'x-forwarded-for',
  'forwarded',
  // Only this edge says who is signed in (sandboxes-proxy.ts).
  SANDBOX_SIGNED_IN_USER_HEADER,
]);
const HOP_BY_HOP_ANSWER = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade']);
const TIMEOUT_MS = 30_000;

/** The provider callbacks the ingestion service receives: the offer walls' and Stripe's. */
export const INGESTED_WEBHOOKS = ['/webhooks/offerwalls', '/webhooks/stripe'];

/** One hop's view of a callback: what either mount (Express, or in front of it) knows of the request. */
interface Hop {
  /** The request target exactly as received. */
  target: string;
  /** The provider's address as this edge resolved it (TRUST_PROXY). */
  clientIp: string;
  correlationId?: string;
  /** Set by this edge on top of what is forwarded (sandboxes-proxy.ts). */
  extraHeaders?: Readonly<Record<string, string>>;
}

const forwardedHeaders = (req: IncomingMessage, hop: Hop): IncomingHttpHeaders => {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!DROPPED.has(name)) headers[name] = value;
  // The provider's address as this edge resolved it (TRUST_PROXY): the ingestion service trusts
  // this hop, and only this one, to name it.
  headers['x-forwarded-for'] = hop.clientIp;
  if (hop.correlationId) headers['x-correlation-id'] = hop.correlationId;
  Object.assign(headers, hop.extraHeaders);
  return headers;
};

/**
 * Streams one callback to the ingestion service as received — method, request target byte for
 * byte (BitLabs signs the whole URL), headers, body — and its answer back. Nothing is buffered or
 * parsed here; the ingestion service enforces its own body limit.
 */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  hop: Hop,
  upstreamAt: { host: string; port: string | number; agent: http.Agent },
  log: Logger,
  answered?: (status: number) => void,
): void {
  const upstream = http.request({
    agent: upstreamAt.agent,
    host: upstreamAt.host,
    port: upstreamAt.port,
    method: req.method,
    path: hop.target,
    headers: forwardedHeaders(req, hop),
    timeout: TIMEOUT_MS,
  });
  upstream.on('response', (answer) => {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP_ANSWER.has(name)) headers[name] = value;
    if (hop.correlationId && !res.hasHeader('x-correlation-id')) headers['x-correlation-id'] = hop.correlationId;
    res.writeHead(answer.statusCode ?? 502, headers);
    answer.pipe(res);
    answered?.(answer.statusCode ?? 502);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('the ingestion service did not answer in time')));
  upstream.on('error', (err) => {
    log.error(`${req.method} ${hop.target.split('?')[0]} to the ingestion service failed: ${err.message}`);
    // The provider retries a callback that was not answered 2xx.
    if (!res.headersSent) {
      const body = 'unavailable';
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      answered?.(503);
    } else res.destroy(err);
  });
  // A provider that hangs up stops the forward too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

export function upstreamOf(webhooksUrl: string) {
  const target = new URL(webhooksUrl);
  // `timeout` also makes the agent honour the ingestion service's `Keep-Alive: timeout=…` answer
  // (Node drops an idle socket a second before the server would): without it a callback sent on a
  // socket the server had just closed failed with ECONNRESET (a 503 to the provider).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: TIMEOUT_MS });
  return { host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, agent };
}

/**
 * Provider callbacks on the one public URL, as Express middleware: used when tracing is on (the
 * request is then the server span of its trace). Mounted before the body parsers.
 */
export function webhooksProxy(webhooksUrl: string): RequestHandler {
  const log = new Logger('WebhooksProxy');
  const upstream = upstreamOf(webhooksUrl);
  return (req: Request, res: Response, _next: NextFunction) =>
    // originalUrl: Express strips the mount path from req.url.
    forward(req, res, { target: req.originalUrl, clientIp: clientIp(req), correlationId: RequestContext.current()?.correlationId }, upstream, log);
}

/** The path part of a request target, lower-cased as Express' (case-insensitive) mount matches it. */
const pathOf = (target: string) => {
  const q = target.indexOf('?');
  return (q < 0 ? target : target.slice(0, q)).toLowerCase();
};

/**
 * The same forward in front of Express (tracing off): a burst of provider callbacks needs none of
 * the gateway's middleware (request logging, security headers, sessions), and in the profile of
 * bench/postbacks.bench.mjs through the gateway that chain cost more than the forward itself. The
 * request keeps what the Express mount gives it: the correlation id (a caller's well-formed one,
 * else a new one, as requestContext does), the client address by Express' own TRUST_PROXY
 * function, and its time in http_request_duration_seconds. It is not logged line by line here:
 * the ingestion service records every delivery.
 */
export function installWebhooksProxyInFront(app: INestApplication, webhooksUrl: string): void {
  const clientIpOf = expressClientIp(app);
  const metrics = app.get(PlatformMetrics, { strict: false });
  const log = new Logger('WebhooksProxy');
  const upstream = upstreamOf(webhooksUrl);
  const prefixes = INGESTED_WEBHOOKS.map((p) => p.toLowerCase());
  inFrontOfExpress(app, (req, res, usualPath) => {
    const target = req.url ?? '';
    const path = pathOf(target);
    const route = prefixes.find((p) => path === p || path.startsWith(`${p}/`));
    if (!route || tracingEnabled()) return usualPath();
    const started = process.hrtime.bigint();
    const method = req.method ?? 'OTHER';
    forward(req, res, { target, clientIp: clientIpOf(req), correlationId: correlationIdOf(req) }, upstream, log, (status) =>
      metrics?.http.observe({ method, route: `${route}/*`, status: String(status) }, secondsSince(started)),
    );
  });
}
