import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { BACKEND_SERVICES, BackendServiceName } from '@esim/contracts';
import type { Env } from '@esim/platform';
import { TestMailServer, TestNamespace } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { startGateway } from '../../services/gateway/src/app';
import { startIdentity } from '../../services/identity/src/app';
import { startNotifications } from '../../services/notifications/src/app';
import { startPayments } from '../../services/payments/src/app';
import { startRewards } from '../../services/rewards/src/app';
import { startWebhooks } from '../../services/webhooks/src/app';
import { SandboxesUnderTest, startSandboxesUnderTest } from '../../sandboxes/src/testing/sandboxes-under-test';
import { HttpClient } from './http-client';
import { freePort } from './ports';

/** The start function of every service in the one list (SERVICES in libs/contracts): a missing one does not compile. */
const STARTERS: Record<BackendServiceName, (env: Env) => Promise<INestApplication>> = {
  identity: startIdentity,
  rewards: startRewards,
  esim: startEsim,
  payments: startPayments,
  notifications: startNotifications,
  webhooks: startWebhooks,
};
export type ServiceKey = BackendServiceName;
export const ALL_SERVICES: ServiceKey[] = [...BACKEND_SERVICES];

export interface SystemOptions {
  services?: ServiceKey[];
  /** Environment for every service (and the gateway). */
  env?: Env;
  /** Environment for the gateway only. */
  gatewayEnv?: Env;
  /** Environment for the provider emulators only (on top of `env`). */
  sandboxesEnv?: Env;
  serveSpa?: boolean;
  /**
   * The host of PUBLIC_URL and `url` (default 127.0.0.1). Passkeys need a domain name, never an
   * IP address, as their relying-party id: their tests use `localhost`.
   */
  host?: string;
}

export interface System {
  url: string;
  ns: TestNamespace;
  mail: TestMailServer;
  apps: Partial<Record<ServiceKey | 'gateway', INestApplication>>;
  /** The provider emulators (the sandboxes process, in this one), which every service without credentials uses. */
  sandboxes: SandboxesUnderTest;
  client(): HttpClient;
  /** Stops one service (as a crash or a deploy would) and lets the test start it again. */
  restart(service: ServiceKey): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Boots the real services and the gateway in this process against the real Postgres, RabbitMQ,
 * Redis and a real SMTP server, isolated in a fresh namespace, with the provider emulators (the
 * sandboxes app) on a port of their own. Everything talks over the broker exactly as in
 * production, and to the providers over HTTP.
 */
export async function startSystem(opts: SystemOptions = {}): Promise<System> {
  if (opts.serveSpa && !existsSync(path.resolve(__dirname, '../../frontend/dist/index.html'))) {
    throw new Error('frontend/dist is missing: browser tests need the built SPA (npm test builds it; or run npm run build -w @esim/frontend)');
  }
  const ns = new TestNamespace();
  const mail = await new TestMailServer().start();
  const port = await freePort();
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  // The ingestion service keeps its port across restarts: the gateway proxies /webhooks to it.
  const webhooksPort = await freePort();
  let sandboxes: SandboxesUnderTest;
  try {
    sandboxes = await startSandboxesUnderTest(ns, { PUBLIC_URL: url, ...opts.env, ...opts.sandboxesEnv });
  } catch (err) {
    await mail.stop();
    await ns.cleanup();
    throw err;
  }
  const shared: Env = { ...mail.env(), PUBLIC_URL: url, SANDBOXES_URL: sandboxes.url, ...opts.env };
  const apps: System['apps'] = {};
  const services = opts.services ?? ALL_SERVICES;

  const boot = (s: ServiceKey) => STARTERS[s](ns.env(s, s === 'webhooks' ? { ...shared, WEBHOOKS_PORT: String(webhooksPort) } : shared));
  try {
    await Promise.all(services.map(async (s) => (apps[s] = await boot(s))));
    apps.gateway = await startGateway(ns.env('gateway', { ...shared, PORT: String(port), WEBHOOKS_URL: `http://127.0.0.1:${webhooksPort}`, SERVE_SPA: opts.serveSpa ? 'true' : 'false', ...opts.gatewayEnv }));
  } catch (err) {
    await Promise.allSettled(Object.values(apps).map((a) => a!.close()));
    await sandboxes.stop();
    await mail.stop();
    await ns.cleanup();
    throw err;
  }

  return {
    url,
    ns,
    mail,
    apps,
    sandboxes,
    client: () => new HttpClient(url),
    async restart(s) {
      await apps[s]?.close();
      apps[s] = await boot(s);
    },
    async stop() {
      await apps.gateway?.close();
      await Promise.allSettled(services.map((s) => apps[s]?.close()));
      await sandboxes.stop();
      await mail.stop();
      await ns.cleanup();
    },
  };
}
