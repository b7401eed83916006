#!/usr/bin/env node
// The rolling-restart drill (docs/operations.md, "Rollouts"): the whole product from its built
// output with two replicas of every service, the gateway included, behind balancers that follow
// readiness as a Kubernetes Service's endpoints do (a replica whose /health/ready fails gets no
// new connection). Under a steady load of signed-in users (wallet, lines, purchases, tasks,
// statement, sessions) and sign-ups (identity, notifications, rewards), it restarts every service
// one replica at a time, as `kubectl rollout restart` does, and counts the requests that failed:
// no answer, a 5xx, or an answer the route never gives. Target: zero.
//
//   node scripts/rolling-restart-drill.mjs [--rounds 1] [--drain-ms 6000] [--base-port 4900] [--users 6] [--rpc-timeout-ms 5000] [--keep]
//
// With --signal SIGKILL it is the node-loss drill instead (docs/architecture.md, "RPC"): each
// replica is killed outright while the gateway calls it, and the drill counts what every caller
// saw by status and error code. Target: no request without an answer (every one answered within
// the gateway's RPC timeout), every failure an error the caller can act on (a 5xx with a code).
//
// Like scripts/chaos-drill.mjs it runs in a database, exchange, queue prefix and Redis prefix of
// its own (`rolling_<random>`), dropped at the end unless --keep; logs go to var/rolling-drill/<run>/.
// Needs the backend built (npm run build:backend) and Postgres, RabbitMQ and Redis running.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const next = process.argv[i + 1];
  return next === undefined || next.startsWith('--') ? true : next;
}
const ROUNDS = Number(option('rounds', 1));
const DRAIN_MS = Number(option('drain-ms', 6000));
const BASE_PORT = Number(option('base-port', 4900));
const SIGNAL = String(option('signal', 'SIGTERM'));
const KEEP = option('keep', false) === true;
const USERS = Number(option('users', 6));
/** The gateway's RPC_TIMEOUT_MS: raise it on a host so busy that answers take seconds whatever the restarts do. */
const RPC_TIMEOUT_MS = String(option('rpc-timeout-ms', 5000));
const KILLING = SIGNAL === 'SIGKILL';
if (!['SIGTERM', 'SIGKILL'].includes(SIGNAL)) {
  console.error('--signal must be SIGTERM (a rolling restart) or SIGKILL (the node-loss drill)');
  process.exit(2);
}
for (const built of ['libs/contracts/dist/ports/services.js', 'sandboxes/dist/main.js']) {
  if (!existsSync(path.join(root, built))) {
    console.error(`${built} is missing: run "npm run build:backend" first.`);
    process.exit(2);
  }
}
const product = await import('./lib/product-env.mjs');
const { SERVICES } = product;
const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
const { Client } = require('pg');
const amqplib = require('amqplib');
const Redis = require('ioredis');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- Where the drill's product lives -------------------------------------------------------
const RUN = `rolling_${randomBytes(4).toString('hex')}`;
const RUN_DIR = path.join(root, 'var/rolling-drill', RUN);
mkdirSync(path.join(RUN_DIR, 'mail'), { recursive: true });
const BASE_DATABASE = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseUrl = new URL(BASE_DATABASE);
databaseUrl.pathname = `/${RUN}`;

// Ports: the two balancers and the emulators first, then each replica's own.
const GATEWAY_PORT = BASE_PORT;
const WEBHOOKS_PORT = BASE_PORT + 1;
const SANDBOXES_PORT = BASE_PORT + 2;
const GATEWAY = `http://127.0.0.1:${GATEWAY_PORT}`;
let nextPort = BASE_PORT + 10;
/** Each replica: { service, replica, port (HTTP), health (where /health/ready answers) }. */
const replicas = [];
for (const service of SERVICES) {
  for (const replica of [0, 1]) {
    const port = nextPort++;
    const health = service === 'gateway' || service === 'webhooks' ? nextPort++ : port;
    replicas.push({ service, replica, port, health, label: `${service}#${replica + 1}` });
  }
}

process.env.GATEWAY_URL = GATEWAY;
process.env.MAIL_OUTBOX_DIR = path.join(RUN_DIR, 'mail');

// ---- Every answer the load got ----------------------------------------------------------------
/** status 0: no answer (refused, reset, or nothing within ANSWER_LIMIT_MS: a hang). */
const answers = [];
const ANSWER_LIMIT_MS = 15_000;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init = {}) => {
  const url = new URL(typeof input === 'string' ? input : input.url);
  const route = `${init.method ?? 'GET'} ${url.pathname}`;
  const start = Date.now();
  try {
    const res = await realFetch(input, { signal: AbortSignal.timeout(ANSWER_LIMIT_MS), ...init });
    const entry = { route, status: res.status, start, end: Date.now() };
    answers.push(entry);
    if (res.status >= 400) {
      // The error's code, for the counts (the body is read again by the caller from the clone).
      const body = await res.clone().json().catch(() => ({}));
      entry.code = body?.code;
    }
    return res;
  } catch (err) {
    answers.push({ route, status: 0, start, end: Date.now(), error: err.name === 'TimeoutError' ? 'no answer within 15 s' : (err.cause?.code ?? err.message) });
    throw err;
  }
};
const { benchUser, session } = await import('../bench/lib/product-client.mjs');

const ENV = {
  ...process.env,
  NODE_ENV: 'development',
  LOG_LEVEL: process.env.DRILL_LOG_LEVEL ?? 'info',
  LOG_FORMAT: 'json',
  DATABASE_URL: databaseUrl.toString(),
  AMQP_URL,
  REDIS_URL,
  EVENTS_EXCHANGE: `${RUN}.events`,
  QUEUE_PREFIX: `${RUN}.`,
  REDIS_PREFIX: `${RUN}:`,
  PUBLIC_URL: GATEWAY,
  MAIL_OUTBOX_DIR: path.join(RUN_DIR, 'mail'),
  SERVE_SPA: 'false',
  SANDBOXES_URL: `http://127.0.0.1:${SANDBOXES_PORT}`,
  WEBHOOKS_URL: `http://127.0.0.1:${WEBHOOKS_PORT}`,
  // Above Node's HTTP keep-alive timeout (5 s): an idle keep-alive connection is then closed by its
  // client before the server closes it (docs/operations.md, "Rollouts"). The balancer follows readiness every 200 ms.
  SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  SHUTDOWN_TIMEOUT_MS: '15000',
  RPC_TIMEOUT_MS,
  RATE_LIMIT_SIGNUP_IP: '100000/3600',
  RATE_LIMIT_VERIFY_IP: '100000/900',
  RATE_LIMIT_LOGIN_IP: '100000/900',
  RATE_LIMIT_RESEND_IP: '100000/3600',
};
for (const name of ['HEALTH_PORT', 'OPS_PORT', 'PORT', 'WEBHOOKS_PORT', 'DB_SCHEMA_SUFFIX', 'STRIPE_WEBHOOK_URL', 'OFFERWALLS_POSTBACK_URL', 'CAPTCHA_VERIFY_URL', 'OFFERWALLS_SANDBOX']) delete ENV[name];
for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'KEEPGO_API_KEY', 'CAPTCHA_SECRET', ...Object.values(OFFERWALL_PROVIDERS).flatMap((w) => Object.values(w.credentials))]) delete ENV[name];

function envOf(r) {
  if (r.service === 'gateway') return { ...ENV, PORT: String(r.port), OPS_PORT: String(r.health) };
  if (r.service === 'webhooks') return { ...ENV, WEBHOOKS_PORT: String(r.port), OPS_PORT: String(r.health) };
  return { ...ENV, HEALTH_PORT: String(r.port) };
}

// ---- Processes ---------------------------------------------------------------------------------
const unexpectedExits = [];
const exits = [];
let stopping = false;
function launch(r) {
  const log = openSync(path.join(RUN_DIR, `${r.label}.log`), 'a');
  const env = r.service === 'sandboxes' ? { ...ENV, PORT: String(SANDBOXES_PORT) } : envOf(r);
  const child = spawn(process.execPath, [product.entryOf(r.service)], { cwd: root, env, stdio: ['ignore', log, log, 'ipc'] });
  r.child = child;
  r.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  r.stopping = false;
  void r.exited.then((how) => {
    if (!stopping && !r.stopping) unexpectedExits.push(`${r.label} exited by itself (${how.signal ?? how.code})`);
  });
}
const sandboxes = { service: 'sandboxes', label: 'sandboxes', health: SANDBOXES_PORT };

async function isReady(r) {
  const res = await realFetch(`http://127.0.0.1:${r.health}/health/ready`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
  return res?.status === 200;
}

/**
 * What the balancer learns from one look: a definite answer (200: ready; 503 or a refused
 * connection: not ready), or nothing when the probe timed out on a starved host, which leaves the
 * replica as it was (a kubelet needs failureThreshold failures in a row to change it).
 */
async function readiness(r) {
  try {
    const res = await realFetch(`http://127.0.0.1:${r.health}/health/ready`, { signal: AbortSignal.timeout(3000) });
    return res.status === 200;
  } catch (err) {
    return err.name === 'TimeoutError' ? undefined : false;
  }
}
async function untilReady(list, timeoutMs = 400_000) {
  const deadline = Date.now() + timeoutMs;
  for (const r of list) {
    while (!(await isReady(r))) {
      if (Date.now() > deadline) throw new Error(`${r.label} was not ready within ${timeoutMs / 1000} s (see ${path.join(RUN_DIR, `${r.label}.log`)})`);
      await sleep(200);
    }
  }
}

/**
 * A Kubernetes Service in front of replicas: new connections round-robin over the replicas whose
 * readiness answered 200 at the last look (every 200 ms), as the endpoints controller keeps them.
 */
function balance(port, targets) {
  const ready = new Set();
  const look = setInterval(() => {
    for (const t of targets) void readiness(t).then((up) => (up === true ? ready.add(t) : up === false ? ready.delete(t) : undefined));
  }, 200);
  let next = 0;
  const server = net.createServer((client) => {
    const live = targets.filter((t) => ready.has(t));
    if (live.length === 0) return client.destroy();
    const target = live[next++ % live.length];
    const upstream = net.connect(target.port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  server.listen(port, '127.0.0.1');
  return { ready, close: () => (clearInterval(look), server.close()) };
}

// ---- The load ----------------------------------------------------------------------------------
const ROUTES = ['/api/user', '/api/points-statement', '/api/esim-lines', '/api/esim-purchases', '/api/tasks', '/api/gifts', '/api/user/sessions', '/api/plans'];
async function reader(call, running) {
  let i = 0;
  while (running()) {
    await call('GET', ROUTES[i++ % ROUTES.length]).catch(() => undefined);
    await sleep(40);
  }
}
const signups = { ok: 0, failed: 0 };
async function signingUp(running) {
  while (running()) {
    await benchUser(session(), { fresh: true }).then(
      () => signups.ok++,
      () => signups.failed++,
    );
    await sleep(1000);
  }
}

// ---- The restarts ------------------------------------------------------------------------------
let t0 = Date.now();
const stamp = () => `[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s]`;
async function restartOne(r) {
  const started = Date.now();
  r.stopping = true;
  r.child.kill(SIGNAL);
  const how = await r.exited;
  exits.push({ label: r.label, ...how, ms: Date.now() - started });
  launch(r);
  await untilReady([r]);
  // Back in its balancer before the next replica goes (maxUnavailable: 0 in deploy/k8s).
  await sleep(500);
  console.log(`${stamp()} ${r.label}: ${SIGNAL} → exit ${how.signal ?? how.code} after ${exits.at(-1).ms} ms, ready again after ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function cleanup(balancers) {
  stopping = true;
  for (const b of balancers) b.close();
  const all = [...replicas, sandboxes].filter((r) => r.child);
  for (const r of all) r.child.kill('SIGTERM');
  await Promise.race([Promise.all(all.map((r) => r.exited)), sleep(30_000)]);
  for (const r of all) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  if (KEEP) {
    console.log(`kept: database ${RUN}, exchange ${RUN}.events, queues ${RUN}.*, Redis keys ${RUN}:*, logs in ${RUN_DIR}`);
    return;
  }
  const admin = new Client({ connectionString: BASE_DATABASE.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${RUN}" WITH (FORCE)`).catch((err) => console.log(`could not drop database ${RUN}: ${err.message}`));
  await admin.end();
  const conn = await amqplib.connect(AMQP_URL);
  const ch = await conn.createChannel();
  for (const s of SERVICES) for (const q of [`${RUN}.${s}.rpc`, `${RUN}.${s}.events`, `${RUN}.${s}.events.dlq`]) await ch.deleteQueue(q);
  await ch.deleteExchange(`${RUN}.events`);
  await ch.close();
  await conn.close();
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${RUN}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function main(balancers) {
  console.log(`rolling-restart drill ${RUN}: ${KILLING ? 'node loss (SIGKILL)' : 'rolling restarts (SIGTERM)'}, 2 replicas of ${SERVICES.join(', ')}; the product at ${GATEWAY}; logs in ${RUN_DIR}`);
  launch(sandboxes);
  await untilReady([sandboxes]);
  for (const r of replicas) launch(r);
  await untilReady(replicas);
  balancers.push(balance(GATEWAY_PORT, replicas.filter((r) => r.service === 'gateway')));
  balancers.push(balance(WEBHOOKS_PORT, replicas.filter((r) => r.service === 'webhooks')));
  await sleep(500);
  console.log(`${stamp()} every replica ready; signing up ${USERS} users`);
  const sessions = [];
  for (let i = 0; i < USERS; i++) {
    // Before the measured load, on a machine still busy starting: a slow answer is tried again.
    for (let attempt = 1; ; attempt++) {
      const call = session();
      const ok = await benchUser(call, { fresh: true }).then(
        () => true,
        (err) => (attempt < 5 ? false : Promise.reject(err)),
      );
      if (ok) {
        sessions.push(call);
        break;
      }
    }
  }
  answers.length = 0;
  t0 = Date.now();
  let loadOn = true;
  const running = () => loadOn;
  const loops = [...sessions.map((call) => reader(call, running)), signingUp(running)];
  await sleep(3000);
  // The node-loss drill kills what the gateway calls (each backend service), not the gateway itself:
  // a killed edge pod's connections end with it, which the ingress in front retries.
  const restarted = KILLING ? replicas.filter((r) => r.service !== 'gateway') : replicas;
  for (let round = 0; round < ROUNDS; round++) for (const r of restarted) await restartOne(r);
  await sleep(3000);
  loadOn = false;
  await Promise.all(loops);

  const failed = answers.filter((a) => a.status === 0 || a.status >= 500);
  const byStatus = {};
  for (const a of answers) byStatus[a.status || 'no answer'] = (byStatus[a.status || 'no answer'] ?? 0) + 1;
  const byWhat = {};
  for (const a of failed) {
    const what = `${a.route} → ${a.status === 0 ? `no answer (${a.error})` : `${a.status} ${a.code ?? 'without a code'}`}`;
    byWhat[what] = (byWhat[what] ?? 0) + 1;
  }
  const hangs = answers.filter((a) => a.status === 0 && /no answer within/.test(a.error ?? '')).length;
  const slowest = Math.max(0, ...answers.map((a) => a.end - a.start));
  const uncoded = answers.filter((a) => a.status >= 500 && !a.code).length;
  const badExits = exits.filter((e) => !KILLING && e.code !== 0);

  console.log(`\n== ${KILLING ? 'node-loss' : 'rolling-restart'} drill results ==`);
  console.log(`restarts: ${exits.length} (${ROUNDS} round(s) of ${restarted.length} replicas), ${SIGNAL}`);
  console.log(`load: ${answers.length} requests ${JSON.stringify(byStatus)}; sign-ups ${signups.ok} ok, ${signups.failed} failed; slowest answer ${slowest} ms`);
  console.log(`failed requests: ${failed.length}${failed.length ? ` ${JSON.stringify(byWhat)}` : ''}`);
  const checks = KILLING
    ? [
        ['every request answered (no hang)', hangs === 0, `${hangs} without an answer within ${ANSWER_LIMIT_MS / 1000} s`],
        ['every failure an error with a code', uncoded === 0 && failed.every((a) => a.status !== 0), `${failed.length} failed: ${JSON.stringify(byWhat)}`],
        ['no replica exited by itself', unexpectedExits.length === 0, unexpectedExits.join('; ') || 'none'],
      ]
    : [
        ['zero failed requests', failed.length === 0, `${failed.length} of ${answers.length}`],
        ['every replica stopped cleanly (exit 0)', badExits.length === 0, badExits.map((e) => `${e.label} ${e.signal ?? e.code}`).join(', ') || `${exits.length} exits, slowest ${Math.max(...exits.map((e) => e.ms))} ms`],
        ['no replica exited by itself', unexpectedExits.length === 0, unexpectedExits.join('; ') || 'none'],
      ];
  for (const [name, ok, detail] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  return checks.every(([, ok]) => ok);
}

const balancers = [];
let passed = false;
try {
  passed = await main(balancers);
} catch (err) {
  console.error(`drill failed to run: ${err.stack ?? err.message}`);
} finally {
  await cleanup(balancers).catch((err) => console.error(`cleanup: ${err.message}`));
}
process.exit(passed ? 0 : 1);
