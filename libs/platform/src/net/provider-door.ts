import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter } from 'prom-client';
import type { Metrics } from '../observability/metrics';

/** What the door allows each provider address, and how long a body may take. */
export interface ProviderDoorSettings {
  /** Provider callbacks one client address may have in flight at once. */
  requestsPerAddress: number;
  /** A callback's body must have arrived this long after its headers. */
  bodyTimeoutMs: number;
}

/** A plain-text answer that also closes the connection (its sender may still be sending). */
function closeWith(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) {
    req.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body, () => req.destroy());
}


/**
 * The door of provider callbacks (`/webhooks/*`), at the gateway's forward and at the ingestion
 * service: at most `requestsPerAddress` of them in flight per client address (the address the
 * process resolved with its TRUST_PROXY: behind a proxy every socket comes from the proxy, so
 * sockets are not what is counted), and a body that must arrive within `bodyTimeoutMs`. Without
 * them, a few hundred slow senders held every connection of the gateway's forward to the
 * ingestion service, and genuine postbacks waited behind them.
 * The count is written by hand: rate limiters (rate-limiter-flexible) count requests per window,
 * not requests in flight, and a Map that forgets an address at zero is all this needs.
 */
export class ProviderDoor {
  /** True when the request carries a body (a length above 0, or chunked). */
  static declaresBody(req: IncomingMessage): boolean {
    return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  }

  private readonly inFlight = new Map<string, number>();
  private readonly refused?: Counter<'reason'>;

  constructor(
    readonly settings: ProviderDoorSettings,
    metrics?: Metrics,
  ) {
    this.refused = metrics?.counter({
      name: 'webhook_requests_refused_total',
      help: 'Provider callbacks the door closed before any service read them: too_many_requests (over the per-address limit in flight), request_timeout (a body slower than its deadline).',
      labelNames: ['reason'],
    });
  }

  /**
   * Lets a callback in, or answers it (429 `too_many_requests`) and answers false. Once in, its
   * address's count is given back when the answer is done or the connection closes.
   */
  enter(address: string, req: IncomingMessage, res: ServerResponse): boolean {
    const count = this.inFlight.get(address) ?? 0;
    if (count >= this.settings.requestsPerAddress) {
      this.refused?.inc({ reason: 'too_many_requests' });
      closeWith(req, res, 429, 'too_many_requests');
      return false;
    }
    this.inFlight.set(address, count + 1);
    res.once('close', () => {
      const left = (this.inFlight.get(address) ?? 1) - 1;
      if (left > 0) this.inFlight.set(address, left);
      else this.inFlight.delete(address);
    });
    return true;
  }

  /**
   * The body's deadline: when the whole body is not in `bodyTimeoutMs` after this call, answers
   * 408 `request_timeout` and closes the connection. Nothing for a request without a body.
   */
  awaitBody(req: IncomingMessage, res: ServerResponse): { cancel(): void } {
    if (!ProviderDoor.declaresBody(req) || req.complete) return { cancel: () => undefined };
    const timer = setTimeout(() => {
      if (req.complete) return;
      this.refused?.inc({ reason: 'request_timeout' });
      closeWith(req, res, 408, 'request_timeout');
    }, this.settings.bodyTimeoutMs);
    const cancel = () => clearTimeout(timer);
    req.once('end', cancel);
    res.once('close', cancel);
    return { cancel };
  }
}
