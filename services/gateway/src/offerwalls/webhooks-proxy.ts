import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Logger, type INestApplication } from '@nestjs/common';
import { expressClientIp, inFrontOfExpress, PlatformMetrics, ProviderDoor, RequestContext, secondsSince, tracingEnabled } from '@esim/platform';
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

/** Body bytes held before the forward starts: a body that has not all arrived by then streams on. */
const HELD_BODY_BYTES = 64 * 1024;

/** An upstream service's address, its connection pool and the log its failures go to. */
export interface Upstream {
  host: string;
  port: string | number;
  agent: http.Agent;
  log: Logger;
}

/** The ingestion service's address and the door every callback passes on its way there. */
export interface WebhooksForward extends Upstream {
  door: ProviderDoor;
}

/**
 * The forward to the ingestion service (WEBHOOKS_URL), one for both mounts: one connection pool,
 * one count of callbacks in flight per address.
 */
export function webhooksForward(webhooksUrl: string, door: ProviderDoor): WebhooksForward {
  return { ...upstreamOf(webhooksUrl, 'WebhooksProxy'), door };
}

/** An upstream HTTP service this edge streams requests to, with its own keep-alive pool. */
export function upstreamOf(url: string, logName: string): Upstream {
  const target = new URL(url);
  // `timeout` also makes the agent honour the upstream's `Keep-Alive: timeout=…` answer (Node
  // drops an idle socket a second before the server would): without it a request sent on a
  // socket the server had just closed failed with ECONNRESET (a 503 to the caller).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: TIMEOUT_MS });
  return { host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, agent, log: new Logger(logName) };
}

/**
 * Streams one request upstream as received and its answer back, with no door and nothing held:
 * for the sandboxes process (http/sandboxes-proxy.ts), which no provider calls.
 */
export function streamTo(req: IncomingMessage, res: ServerResponse, hop: Hop, to: Upstream): void {
  send(req, res, hop, to, []);
}

/**
 * Forwards one callback to the ingestion service as received — method, request target byte for
 * byte (BitLabs signs the whole URL), headers, body — and streams its answer back; nothing is
 * parsed here, and the ingestion service enforces its own body limit. It passes the door first
 * (ProviderDoor: callbacks in flight per address, the body's deadline). A body is held here until
 * it has all arrived (or HELD_BODY_BYTES of it have), and only then is a connection to the
 * ingestion service taken: a sender dribbling its body holds its own connection, never one of
 * the pool that every provider's callbacks share.
 */
function forward(req: IncomingMessage, res: ServerResponse, hop: Hop, to: WebhooksForward, answered?: (status: number) => void): void {
  if (!to.door.enter(hop.clientIp, req, res)) return answered?.(429);
  if (!ProviderDoor.declaresBody(req)) return send(req, res, hop, to, [], answered);
  to.door.awaitBody(req, res);
  const held: Buffer[] = [];
  let size = 0;
  let sent = false;
  const go = () => {
    if (sent || res.writableEnded || res.destroyed) return;
    sent = true;
    req.off('data', hold);
    send(req, res, hop, to, held, answered);
  };
  const hold = (chunk: Buffer) => {
    held.push(chunk);
    size += chunk.length;
    if (size >= HELD_BODY_BYTES) {
      // Paused before its listener goes, so no chunk is lost before the pipe takes over.
      req.pause();
      go();
    }
  };
  req.on('data', hold);
  req.once('end', go);
}

/** Methods that change nothing upstream, so sending one again cannot do anything twice. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a failed forward may be sent once more: a safe request with no body that failed on a
 * pooled keep-alive connection before any answer came (`reusedSocket`, Node's documented case for
 * retrying): the upstream closed that idle connection as the request went out (ECONNRESET, EPIPE),
 * typically while its event loop was busy, and the request never reached it. Answering 503 for
 * that was the /sandbox proxy's intermittent 503 within a second (a burst of Pix QR image GETs).
 * Provider callbacks (POSTs) are never sent twice: the provider retries them itself.
 */
function retriable(req: IncomingMessage, upstream: http.ClientRequest, err: NodeJS.ErrnoException): boolean {
  return upstream.reusedSocket && SAFE_METHODS.has(req.method ?? '') && !ProviderDoor.declaresBody(req) && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
}

/** Sends the request upstream: the held part of its body, then whatever is still to come. */
function send(req: IncomingMessage, res: ServerResponse, hop: Hop, to: Upstream, held: Buffer[], answered?: (status: number) => void, retried = false): void {
  const upstream = http.request({
    agent: to.agent,
    host: to.host,
    port: to.port,
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
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (!retried && !res.headersSent && !res.destroyed && retriable(req, upstream, err)) {
      to.log.warn(`${req.method} ${hop.target.split('?')[0]} upstream (${to.host}:${to.port}) closed a pooled connection (${err.code}): sent again`);
      return send(req, res, hop, to, held, answered, true);
    }
    to.log.error(`${req.method} ${hop.target.split('?')[0]} upstream (${to.host}:${to.port}) failed: ${err.message}`);
    // The provider retries a callback that was not answered 2xx.
    if (!res.headersSent) {
      const body = 'unavailable';
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      answered?.(503);
    } else res.destroy(err);
  });
  // A provider that hangs up (or is cut off by the door) stops the forward too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  for (const chunk of held) upstream.write(chunk);
  // A request without a body is ended at once (it may be sent again: retriable).
  if (req.readableEnded || !ProviderDoor.declaresBody(req)) upstream.end();
  else req.pipe(upstream);
}

/**
 * Provider callbacks on the one public URL, as Express middleware: used when tracing is on (the
 * request is then the server span of its trace). Mounted before the body parsers.
 */
export function webhooksProxy(to: WebhooksForward, clientIpOf: (req: Request) => string = clientIp): RequestHandler {
  return (req: Request, res: Response, _next: NextFunction) =>
    // originalUrl: Express strips the mount path from req.url.
    forward(req, res, { target: req.originalUrl, clientIp: clientIpOf(req), correlationId: RequestContext.current()?.correlationId }, to);
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
export function installWebhooksProxyInFront(app: INestApplication, to: WebhooksForward): void {
  const clientIpOf = expressClientIp(app);
  const metrics = app.get(PlatformMetrics, { strict: false });
  const prefixes = INGESTED_WEBHOOKS.map((p) => p.toLowerCase());
  inFrontOfExpress(app, (req, res, usualPath) => {
    const target = req.url ?? '';
    const path = pathOf(target);
    const route = prefixes.find((p) => path === p || path.startsWith(`${p}/`));
    if (!route || tracingEnabled()) return usualPath();
    const started = process.hrtime.bigint();
    const method = req.method ?? 'OTHER';
    forward(req, res, { target, clientIp: clientIpOf(req), correlationId: correlationIdOf(req) }, to, (status) =>
      metrics?.http.observe({ method, route: `${route}/*`, status: String(status) }, secondsSince(started)),
    );
  });
}
