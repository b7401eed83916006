import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { expressClientIp, inFrontOfExpress, limitSlowClients, Metrics, ProviderDoor } from '@esim/platform';
import type { WebhooksConfig } from '../config';

const PREFIX = '/webhooks/';

/**
 * The ingestion service's door, in front of every other listener: slow clients cut off on the
 * whole port (half-sent headers, slow requests: limitSlowClients), and for callbacks (`/webhooks/*`)
 * at most WEBHOOK_REQUESTS_PER_ADDRESS in flight per provider address and a body due within
 * WEBHOOK_BODY_TIMEOUT_MS (ProviderDoor). It matters when providers call this service directly
 * (deploy/k8s sends /webhooks here from the Ingress); behind the gateway, the gateway's own door
 * has already let the callback in.
 */
export class ProviderDoorGuard {
  static install(app: INestApplication, config: WebhooksConfig): void {
    limitSlowClients(app.getHttpServer() as Server, { headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS });
    const door = new ProviderDoor({ requestsPerAddress: config.WEBHOOK_REQUESTS_PER_ADDRESS, bodyTimeoutMs: config.WEBHOOK_BODY_TIMEOUT_MS }, app.get(Metrics));
    const clientIp = expressClientIp(app);
    inFrontOfExpress(app, (req, res, usualPath) => {
      // Case-insensitive, as Express' mounts match.
      if ((req.url ?? '').slice(0, PREFIX.length).toLowerCase() !== PREFIX) return usualPath();
      if (!door.enter(clientIp(req), req, res)) return;
      door.awaitBody(req, res);
      usualPath();
    });
  }
}
