// How each process of the product is configured when it runs from its built output on one machine:
// its ports (moved by an offset, one per replica) and the provider emulators (sandboxes/) it is
// pointed at. Shared by scripts/start-all.mjs and scripts/chaos-drill.mjs, so the drill runs the
// product as `npm start` does.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
// The one list of services and their default HTTP ports (libs/contracts/src/ports/services.ts).
const { SERVICES, DEFAULT_HTTP_PORTS } = require(path.join(root, 'libs/contracts/dist/ports/services.js'));
const { SANDBOXES_DEFAULT_PORT } = require(path.join(root, 'libs/contracts/dist/sandboxes/index.js'));
export { SERVICES, DEFAULT_HTTP_PORTS };

/** The built entry point of a service, or of the emulators' process ('sandboxes'). */
export function entryOf(name) {
  return name === 'sandboxes' ? path.join(root, 'sandboxes', 'dist', 'main.js') : path.join(root, 'services', name, 'dist', 'main.js');
}

/**
 * The HTTP port of one process (/health, /metrics of a backend service; the public port of the
 * gateway and of the webhooks ingestion service, whose /health and /metrics are on opsPortOf). With replicas each
 * replica has its own: the service's port, then +100, +200, …; the webhooks service's port is then
 * the balancer's, and its replicas listen on +100, +200, ….
 */
export function portOf(name, { offset = 0, replicas = 1, replica = 0 } = {}) {
  if (name === 'sandboxes') return SANDBOXES_DEFAULT_PORT + offset;
  if (name === 'gateway') return DEFAULT_HTTP_PORTS.gateway + offset;
  const behindBalancer = name === 'webhooks' && replicas > 1;
  return DEFAULT_HTTP_PORTS[name] + offset + 100 * (behindBalancer ? replica + 1 : replica);
}

/**
 * The internal operator port (/health/*, /metrics) of the gateway and the webhooks ingestion
 * service, whose HTTP ports are public and answer neither (their OPS_PORT: 3100 and 3108 by
 * default; replicas of the ingestion service +100, +200, …). Other services serve them on portOf.
 */
export const OPS_PORTS = { gateway: 3100, webhooks: 3108 };
export function opsPortOf(name, { offset = 0, replica = 0 } = {}) {
  if (!(name in OPS_PORTS)) return portOf(name, { offset, replica });
  return OPS_PORTS[name] + offset + 100 * replica;
}

/** The environment of one process of a service: its ports, when they differ from the service's defaults. */
export function serviceEnv(env, name, { offset = 0, replicas = 1, replica = 0 } = {}) {
  if (offset === 0 && replicas === 1) return env;
  if (name === 'gateway')
    return { ...env, PORT: String(portOf('gateway', { offset })), OPS_PORT: String(opsPortOf('gateway', { offset })), WEBHOOKS_URL: env.WEBHOOKS_URL ?? `http://127.0.0.1:${portOf('webhooks', { offset })}` };
  const port = portOf(name, { offset, replicas, replica });
  if (name === 'webhooks') return { ...env, WEBHOOKS_PORT: String(port), OPS_PORT: String(opsPortOf('webhooks', { offset, replica })) };
  return { ...env, HEALTH_PORT: String(port) };
}

/** The emulators' process on its (offset) port, and the SANDBOXES_URL that points the services at it. */
export function sandboxesProcess(env, { offset = 0 } = {}) {
  const port = portOf('sandboxes', { offset });
  return { port, url: `http://127.0.0.1:${port}`, env: { ...env, PORT: String(port) } };
}

/**
 * The providers without credentials, which the emulators stand in for (each service's settings
 * choose the sandbox the same way: no secret key, no API key, a wall with none of its credentials).
 */
export function providersWithoutCredentials(env) {
  const missing = [];
  if (!env.STRIPE_SECRET_KEY) missing.push('Stripe');
  if (!env.KEEPGO_API_KEY) missing.push('KeepGo');
  if (!env.CAPTCHA_SECRET) missing.push('Turnstile');
  if (env.OFFERWALLS_SANDBOX !== 'false') {
    const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
    for (const wall of Object.values(OFFERWALL_PROVIDERS)) if (Object.values(wall.credentials).every((v) => !env[v])) missing.push(wall.name);
  }
  return missing;
}
