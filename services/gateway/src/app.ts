import type { INestApplication } from '@nestjs/common';
import type { Express } from 'express';
import { SANDBOX_BROWSER_PREFIX } from '@esim/contracts';
import { limitSlowClients, Metrics, ProviderDoor, serviceStarter } from '@esim/platform';
import { GatewayConfig, gatewayConfigSchema } from './config';
import { GatewayModule } from './gateway.module';
import { bodyParsers } from './http/body-parsers';
import { csrfGuard, originGuard } from './http/csrf.middleware';
import { jsonCompression } from './http/json-compression';
import { noStore, requestContext } from './http/request-context.middleware';
import { sandboxesProxy } from './http/sandboxes-proxy';
import { securityHeaders } from './http/security-headers';
import { serveSpa } from './http/spa';
import { INGESTED_WEBHOOKS, installWebhooksProxyInFront, webhooksForward, webhooksProxy } from './offerwalls/webhooks-proxy';
import { sessionCookieName, sessionLifetime, sessionMiddleware } from './sessions/session.middleware';
import RedisStoreClass from 'connect-redis';
import { UserViewFastPath } from './user-view/user-view-fast-path';

function configureEdge(app: INestApplication, config: GatewayConfig): void {
  const http = app.getHttpAdapter().getInstance() as Express;
  http.disable('x-powered-by');
  const trust = config.TRUST_PROXY;
  http.set('trust proxy', trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust.split(',').map((s) => s.trim()));
  http.use(requestContext);
  // Slow clients (half-sent headers, dribbled bodies) are cut off instead of holding connections.
  limitSlowClients(app.getHttpServer(), { headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS });
  const door = new ProviderDoor({ requestsPerAddress: config.WEBHOOK_REQUESTS_PER_ADDRESS, bodyTimeoutMs: config.WEBHOOK_BODY_TIMEOUT_MS }, app.get(Metrics));
  const webhooks = webhooksForward(config.WEBHOOKS_URL, door);
  // Provider callbacks stream to the ingestion service untouched, before any body parser reads them
  // (and before the browser-facing headers, which a provider's server has no use for).
  http.use(INGESTED_WEBHOOKS, webhooksProxy(webhooks));
  http.use(securityHeaders());
  const store = app.get(RedisStoreClass);
  // The provider emulators' browser side streams to the sandboxes process, body untouched; the
  // session only says who is signed in (sandboxes-proxy.ts); like every state-changing route, a page
  // on another site is refused (originGuard). Never in production unless allowed.
  if (config.NODE_ENV !== 'production' || config.ALLOW_SANDBOX_IN_PRODUCTION)
    http.use(SANDBOX_BROWSER_PREFIX, originGuard(config.PUBLIC_URL), sessionMiddleware(config, store), sessionLifetime(config), sandboxesProxy(config.SANDBOXES_URL));
  http.use(bodyParsers(config.BODY_LIMIT));
  http.use('/api', jsonCompression(), noStore, csrfGuard(config.PUBLIC_URL));
  http.use('/api', sessionMiddleware(config, store), sessionLifetime(config));
  if (config.SERVE_SPA) serveSpa(http, { dir: config.SPA_DIR, publicUrl: config.PUBLIC_URL, sessionCookie: sessionCookieName(config) });
  // GET /api/user from the read model in front of Express, when nothing unusual is asked (user-view-fast-path.ts).
  UserViewFastPath.install(app, config);
  // Provider callbacks forwarded before Express when tracing is off (webhooks-proxy.ts); the mount above serves the traced case.
  installWebhooksProxyInFront(app, webhooks);
}

/**
 * Starts the gateway with configuration read from `env`, like every service (serviceStarter):
 * the same config loader, health, shutdown and broker connection; it parses bodies itself.
 */
export const startGateway = serviceStarter({
  name: 'gateway',
  configSchema: gatewayConfigSchema,
  httpPort: (config) => config.PORT,
  opsPort: (config) => config.OPS_PORT,
  module: (config) => GatewayModule.register(config),
  bodyParser: false,
  configure: configureEdge,
});
