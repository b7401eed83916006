import http, { type IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Logger } from '@nestjs/common';
import { RequestContext } from '@esim/platform';
import { clientIp } from '../common/client-ip';

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
]);
const HOP_BY_HOP_ANSWER = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade']);
const TIMEOUT_MS = 30_000;

/**
 * The provider callbacks the ingestion service receives. Stripe's (/webhooks/stripe) still goes
 * to payments through the gateway's own route until it moves there too; then this becomes
 * '/webhooks'.
 */
export const INGESTED_WEBHOOKS = ['/webhooks/offerwalls'];

const forwardedHeaders = (req: Request): IncomingHttpHeaders => {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!DROPPED.has(name)) headers[name] = value;
  // The provider's address as this edge resolved it (TRUST_PROXY): the ingestion service trusts
  // this hop, and only this one, to name it.
  headers['x-forwarded-for'] = clientIp(req);
  const correlationId = RequestContext.current()?.correlationId;
  if (correlationId) headers['x-correlation-id'] = correlationId;
  return headers;
};

/**
 * Provider callbacks on the one public URL: streamed to the ingestion service (WEBHOOKS_URL) as received
 * — method, request target byte for byte (BitLabs signs the whole URL), headers, body — and its
 * answer streamed back. Nothing is buffered or parsed here; the ingestion service enforces its
 * own body limit. Mounted before the body parsers.
 */
export function webhooksProxy(webhooksUrl: string): RequestHandler {
  const log = new Logger('WebhooksProxy');
  const target = new URL(webhooksUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  return (req: Request, res: Response, _next: NextFunction) => {
    const upstream = http.request({
      agent,
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || 80,
      method: req.method,
      // The request target exactly as received (originalUrl: Express strips the mount path from req.url).
      path: req.originalUrl,
      headers: forwardedHeaders(req),
      timeout: TIMEOUT_MS,
    });
    upstream.on('response', (answer) => {
      const headers: IncomingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP_ANSWER.has(name)) headers[name] = value;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('the ingestion service did not answer in time')));
    upstream.on('error', (err) => {
      log.error(`${req.method} ${req.path} to the ingestion service failed: ${err.message}`);
      // The provider retries a callback that was not answered 2xx.
      if (!res.headersSent) res.status(503).type('text/plain').send('unavailable');
      else res.destroy(err);
    });
    // A provider that hangs up stops the forward too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}
