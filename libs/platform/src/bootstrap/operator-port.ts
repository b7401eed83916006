import http, { type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** Requests that arrived on an operator port (by object identity: Express keeps Node's request object). */
const OPS_REQUESTS = new WeakSet<IncomingMessage>();
const SERVERS = new WeakMap<INestApplication, Server>();

/**
 * /metrics and /health/* of the platform's controllers, case-insensitive and with repeated or
 * trailing slashes, as Express' router matches them.
 */
function isOperatorPath(path: string): boolean {
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    // An undecodable path reaches no controller: judged as sent.
  }
  return /^\/+(metrics|health)(\/|$)/i.test(p);
}

/**
 * The operator surface (/metrics, /health/live, /health/ready) of a process whose HTTP port is
 * public (the gateway; the ingestion service, which providers call): a second listener on an
 * internal port shares the process's Express app, and a gate in front of every route lets the
 * operator paths through only on that listener and every other path only on the public one.
 * Nest has one HTTP server per app; a second Nest app would be a second module graph (a second
 * broker connection, pools, metrics registry), so the listener is added by hand here.
 */
export class OperatorPort {
  /** Express middleware, installed before any other route or fallback (the SPA's included). */
  static gate() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (OPS_REQUESTS.has(req) === isOperatorPath(req.path)) return next();
      res.status(404).json({ code: 'not_found', message: 'Not Found' });
    };
  }

  /** Starts the operator listener on `port` (0 picks a free one); it is closed with the app. */
  static async listen(app: INestApplication, port: number): Promise<Server> {
    const handler = app.getHttpAdapter().getInstance() as (req: IncomingMessage, res: http.ServerResponse) => void;
    const server = http.createServer((req, res) => {
      OPS_REQUESTS.add(req);
      handler(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    SERVERS.set(app, server);
    // Closed with the app's own server: Nest closes that one on app.close() (the app object is a
    // proxy that ignores assignments, so its close cannot be wrapped; the Node server can).
    const main = app.getHttpServer() as Server;
    const closeMain = main.close.bind(main);
    main.close = ((callback?: (err?: Error) => void) => {
      server.close();
      server.closeIdleConnections();
      return closeMain(callback);
    }) as Server['close'];
    return server;
  }

  /** The port the operator listener of `app` answers on, when it has one. */
  static portOf(app: INestApplication): number | undefined {
    const address = SERVERS.get(app)?.address() as AddressInfo | null | undefined;
    return address?.port;
  }
}
