import type { INestApplication } from '@nestjs/common';
import type { Express } from 'express';
import { Env, loadConfig, startService } from '@esim/platform';
import { GatewayConfig, gatewayConfigSchema } from './config';
import { GatewayModule } from './gateway.module';
import { bodyParsers } from './http/body-parsers';
import { csrfGuard } from './http/csrf.middleware';
import { noStore, requestContext } from './http/request-context.middleware';
import { securityHeaders } from './http/security-headers';
import { serveSpa } from './http/spa';
import { sessionLifetime, sessionMiddleware } from './sessions/session.middleware';
import RedisStoreClass from 'connect-redis';

export const GATEWAY_DEFAULT_PORT = 3000;

function configureEdge(app: INestApplication, config: GatewayConfig): void {
  const http = app.getHttpAdapter().getInstance() as Express;
  http.disable('x-powered-by');
  const trust = config.TRUST_PROXY;
  http.set('trust proxy', trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust.split(',').map((s) => s.trim()));
  http.use(requestContext);
  http.use(securityHeaders());
  http.use(bodyParsers(config.BODY_LIMIT));
  http.use('/api', noStore, csrfGuard(config.PUBLIC_URL));
  const store = app.get(RedisStoreClass);
  http.use(['/api', '/sandbox'], sessionMiddleware(config, store), sessionLifetime(config));
  if (config.SERVE_SPA) serveSpa(http, config.SPA_DIR);
}

/** Starts the gateway with configuration read from `env`. */
export async function startGateway(env: Env, opts: { shutdownHooks?: boolean } = {}): Promise<INestApplication> {
  const config = loadConfig(gatewayConfigSchema, env);
  return startService({
    name: 'gateway',
    module: GatewayModule.register(config),
    config,
    port: config.PORT,
    rpc: false,
    bodyParser: false,
    configure: (app) => configureEdge(app, config),
    ...opts,
  });
}
