import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { Logger, type INestApplication } from '@nestjs/common';
import { isOfferwallId } from '@esim/contracts';
import { expressClientIp, inFrontOfExpress, PlatformMetrics, secondsSince, tracingEnabled } from '@esim/platform';
import { deliveryOf } from './postback-delivery';
import { PostbackIngestion } from './postback-ingestion.service';

const ROUTE = '/webhooks/offerwalls/:provider';
const PREFIX = '/webhooks/offerwalls/';

/**
 * `GET /webhooks/offerwalls/:provider` answered in front of Express: the one request a provider
 * sends by the thousand in a burst. In the profile of bench/postbacks.bench.mjs, Express, Nest's
 * router and pino-http's per-request logger were about a third of this service's time per
 * postback, for a request that needs none of them: no body, no session, an answer of a few bytes.
 *
 * The delivery handed to PostbackIngestion is built by the same `deliveryOf` as the controller's,
 * from what Express would have given it: the path and query as received, the query parsed by
 * Express' default ("simple": node:querystring), the source address by Express' own compiled
 * TRUST_PROXY function. The answer is the controller's: status and body from the ingestion, plain
 * text. Anything else (a POST, a GET carrying a body, another path, tracing on) goes to Express
 * untouched, so this path never answers what the usual one would answer differently.
 *
 * Each request is timed in http_request_duration_seconds under the controller's route; it is not
 * logged line by line: webhook_transactions records every delivery with its outcome.
 */
export class PostbackFastPath {
  private readonly log = new Logger('PostbackFastPath');

  constructor(
    private readonly ingestion: PostbackIngestion,
    private readonly publicOrigin: string,
    private readonly clientIp: (req: IncomingMessage) => string,
    private readonly metrics?: PlatformMetrics,
  ) {}

  /** Puts the fast path in front of the server's request listener (Express). */
  static install(app: INestApplication, publicUrl: string): void {
    const fast = new PostbackFastPath(app.get(PostbackIngestion), new URL(publicUrl).origin, expressClientIp(app), app.get(PlatformMetrics, { strict: false }));
    inFrontOfExpress(app, (req, res, usualPath) => fast.handle(req, res, usualPath));
  }

  handle(req: IncomingMessage, res: ServerResponse, usualPath: () => void): void {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !url.startsWith(PREFIX) || tracingEnabled()) return usualPath();
    // A GET with a body goes where the body parsers can refuse it as they always have.
    if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')) return usualPath();
    const q = url.indexOf('?');
    const provider = q < 0 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q);
    if (!isOfferwallId(provider)) return usualPath();
    const started = process.hrtime.bigint();
    const delivery = deliveryOf(provider, {
      method: 'GET',
      fullUrl: `${this.publicOrigin}${url}`,
      query: q < 0 ? {} : (querystring.parse(url.slice(q + 1)) as Record<string, string | string[]>),
      body: null,
      rawHeaders: req.headers,
      sourceIp: this.clientIp(req),
    });
    this.ingestion.ingest(delivery).then(
      (answer) => this.answer(res, answer.httpStatus, answer.body, started),
      (err: unknown) => {
        // What Nest's exception filter answers on the usual path.
        this.log.error(`postback from ${delivery.sourceIp} could not be recorded: ${(err as Error).stack ?? String(err)}`);
        this.answer(res, 500, 'Internal server error', started);
      },
    );
  }

  private answer(res: ServerResponse, status: number, body: string, started: bigint): void {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    this.metrics?.http.observe({ method: 'GET', route: ROUTE, status: String(status) }, secondsSince(started));
  }
}
