import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { Express } from 'express';
import proxyaddr from 'proxy-addr';
import { plainIpAddress } from './ip-address';

/**
 * Puts `handle` in front of the HTTP server's request listener (Express, under Nest), for the few
 * hot requests a service answers without Express' middleware chain (the gateway's GET /api/user
 * and webhook forward, the ingestion service's GET postbacks). `handle` calls `usualPath()` for
 * anything it does not answer itself, which Express then gets untouched. Installs nothing (and
 * answers false) when the server does not have exactly one request listener.
 */
export function inFrontOfExpress(app: INestApplication, handle: (req: IncomingMessage, res: ServerResponse, usualPath: () => void) => void): boolean {
  const server = app.getHttpServer() as Server;
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (listeners.length !== 1) return false;
  const [express] = listeners;
  server.removeListener('request', express);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handle(req, res, () => express(req, res)));
  return true;
}

/**
 * The client's address of a request as `req.ip` gives it — by Express' own compiled TRUST_PROXY
 * function, read once from the app — with an IPv4-mapped address written as IPv4: for the paths
 * in front of Express, which must see the same address Express would.
 */
export function expressClientIp(app: INestApplication): (req: IncomingMessage) => string {
  const trust = (app.getHttpAdapter().getInstance() as Express).get('trust proxy fn') as (addr: string, i: number) => boolean;
  return (req) => plainIpAddress(proxyaddr(req, trust));
}
