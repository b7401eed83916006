// What the drills (scripts/chaos-drill.mjs, scripts/rolling-restart-drill.mjs) share: their
// options, the run's own database, exchange, queue prefix and Redis prefix (and their removal
// afterwards), the environment every process of the product gets there, the client that stands
// for the proxy in front of the gateway, and the record of every answer the load got.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Not product-env.mjs' root: that module reads the build when loaded, and requireBuilt comes first.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const require = createRequire(import.meta.url);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `--name value` from the command line; a flag without a value is `true`. */
export function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const next = process.argv[i + 1];
  return next === undefined || next.startsWith('--') ? true : next;
}

/** Exits (2) unless every built file the drill loads is there. */
export function requireBuilt(files) {
  for (const built of files) {
    if (!existsSync(path.join(root, built))) {
      console.error(`${built} is missing: run "npm run build:backend" first.`);
      process.exit(2);
    }
  }
}

/**
 * The drill's run: a name (`<kind>_<random>`) for its database, exchange, queue prefix and Redis
 * prefix, a log folder var/<kind>-drill/<run>/ with the mail outbox in it, and the servers
 * (DATABASE_URL's server, AMQP_URL, REDIS_URL of the shell, else the local ones).
 */
export function drillRun(kind, folder) {
  const run = `${kind}_${randomBytes(4).toString('hex')}`;
  const dir = path.join(root, 'var', folder, run);
  mkdirSync(path.join(dir, 'mail'), { recursive: true });
  const baseDatabase = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const database = new URL(baseDatabase);
  database.pathname = `/${run}`;
  return {
    run,
    dir,
    mailDir: path.join(dir, 'mail'),
    baseDatabase,
    /** The run's database on the same server, reached directly. */
    database,
    amqpUrl: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/**
 * The environment of the product's processes in the run: the shell's, with the run's database,
 * broker names and Redis prefix, and without anything that would lead to a developer's instance
 * (ports, URLs, emulators) or a live provider (the load signs with the emulated walls' credentials
 * and pays with test cards). `extra` comes last.
 */
export function drillEnv(r, { databaseUrl, amqpUrl, gateway, logLevel }, extra = {}) {
  const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.DRILL_LOG_LEVEL ?? logLevel,
    LOG_FORMAT: 'json',
    DATABASE_URL: String(databaseUrl),
    AMQP_URL: String(amqpUrl),
    REDIS_URL: r.redisUrl,
    EVENTS_EXCHANGE: `${r.run}.events`,
    QUEUE_PREFIX: `${r.run}.`,
    REDIS_PREFIX: `${r.run}:`,
    PUBLIC_URL: gateway,
    MAIL_OUTBOX_DIR: r.mailDir,
    SERVE_SPA: 'false',
    // Every request of the load comes from 127.0.0.1: the per-address limits would stop the load, not abuse.
    RATE_LIMIT_SIGNUP_IP: '100000/3600',
    RATE_LIMIT_VERIFY_IP: '100000/900',
    RATE_LIMIT_LOGIN_IP: '100000/900',
    RATE_LIMIT_RESEND_IP: '100000/3600',
  };
  for (const name of ['GATEWAY_URL', 'HEALTH_PORT', 'OPS_PORT', 'PORT', 'WEBHOOKS_PORT', 'WEBHOOKS_URL', 'SANDBOXES_URL', 'DB_SCHEMA', 'DB_SCHEMA_SUFFIX', 'STRIPE_WEBHOOK_URL', 'OFFERWALLS_POSTBACK_URL', 'CAPTCHA_VERIFY_URL', 'OFFERWALLS_SANDBOX']) delete env[name];
  for (const name of Object.keys(env)) if (/^[A-Z]+_HOLD_(MIN_POINTS|SECONDS)$/.test(name) && !name.startsWith('CREDIT_')) delete env[name];
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'KEEPGO_API_KEY', 'CAPTCHA_SECRET', ...Object.values(OFFERWALL_PROVIDERS).flatMap((w) => Object.values(w.credentials))]) delete env[name];
  return { ...env, ...extra };
}

/** Starts one built process with its output in `logFile`; the IPC channel stops it if the drill dies (start-service.ts). */
export function launchLogged(entry, env, logFile) {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', log, log, 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

/**
 * How long the load's client keeps an idle connection: it stands for the proxy in front of the
 * gateway (the Ingress), whose idle timeout is below the gateway's HTTP_KEEP_ALIVE_TIMEOUT_MS so
 * that the proxy, never the server, closes an idle connection (docs/operations.md, "Rollouts"),
 * and below SHUTDOWN_DRAIN_MS, so that no idle connection is left to a replica that stops.
 */
export const CLIENT_IDLE_MS = 4_000;

/**
 * Every answer the load gets, through globalThis.fetch (bench/lib/product-client.mjs uses it):
 * route, status (0: no answer: refused, reset, closed, or none within `limitMs`, a hang), times,
 * the error's code for a 4xx/5xx, and the correlation id sent with it (X-Correlation-Id, which the
 * gateway logs), so a request without an answer can be found in the logs. Returns the list and
 * the fetch without the record (for the drill's own probes).
 */
export function recordAnswers({ limitMs, routeOf = (url) => url.pathname }) {
  const { Agent } = require('undici');
  const dispatcher = new Agent({ keepAliveTimeout: CLIENT_IDLE_MS, keepAliveMaxTimeout: CLIENT_IDLE_MS });
  const answers = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const route = `${init.method ?? 'GET'} ${routeOf(url)}`;
    const correlationId = randomUUID();
    const headers = new Headers(init.headers);
    headers.set('x-correlation-id', correlationId);
    const start = Date.now();
    try {
      const res = await realFetch(input, { signal: AbortSignal.timeout(limitMs), dispatcher, ...init, headers });
      const entry = { route, status: res.status, start, end: Date.now(), correlationId };
      answers.push(entry);
      if (res.status >= 400) entry.code = (await res.clone().json().catch(() => ({})))?.code;
      return res;
    } catch (err) {
      const error = err.name === 'TimeoutError' ? `no answer within ${limitMs / 1000} s` : (err.cause?.code ?? err.message);
      answers.push({ route, status: 0, start, end: Date.now(), error, correlationId });
      throw err;
    }
  };
  return { answers, realFetch };
}

/** Drops what the run made on the servers: its database, exchange and queues, and Redis keys. */
export async function dropRun(r, services) {
  const { Client } = require('pg');
  const amqplib = require('amqplib');
  const Redis = require('ioredis');
  const admin = new Client({ connectionString: r.baseDatabase.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${r.run}" WITH (FORCE)`).catch((err) => console.log(`could not drop database ${r.run}: ${err.message}`));
  await admin.end();
  const conn = await amqplib.connect(r.amqpUrl);
  const ch = await conn.createChannel();
  for (const s of services) for (const q of [`${r.run}.${s}.rpc`, `${r.run}.${s}.events`, `${r.run}.${s}.events.dlq`]) await ch.deleteQueue(q);
  await ch.deleteExchange(`${r.run}.events`);
  await ch.close();
  await conn.close();
  const redis = new Redis(r.redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${r.run}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}
