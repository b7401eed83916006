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
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { dropRun, drillEnv, drillRun, launchLogged, option, recordAnswers, requireBuilt, sleep } from './lib/drill.mjs';

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
requireBuilt(['libs/contracts/dist/ports/services.js', 'services/webhooks/dist/postbacks/providers/index.js', 'sandboxes/dist/main.js']);
const product = await import('./lib/product-env.mjs');
const { SERVICES } = product;

// ---- Where the drill's product lives -------------------------------------------------------
const DRILL = drillRun('rolling', 'rolling-drill');
const { run: RUN, dir: RUN_DIR } = DRILL;

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

// bench/lib/product-client.mjs reads where the product and its mail are when it is loaded.
process.env.GATEWAY_URL = GATEWAY;
process.env.MAIL_OUTBOX_DIR = DRILL.mailDir;

// ---- Every answer the load got ----------------------------------------------------------------
/** status 0: no answer (refused, reset, closed, or nothing within ANSWER_LIMIT_MS: a hang). */
const ANSWER_LIMIT_MS = 15_000;
const { answers, realFetch } = recordAnswers({ limitMs: ANSWER_LIMIT_MS });
const { benchUser, session } = await import('../bench/lib/product-client.mjs');

const ENV = drillEnv(
  DRILL,
  { databaseUrl: DRILL.database, amqpUrl: DRILL.amqpUrl, gateway: GATEWAY, logLevel: 'info' },
  {
    SANDBOXES_URL: `http://127.0.0.1:${SANDBOXES_PORT}`,
    WEBHOOKS_URL: `http://127.0.0.1:${WEBHOOKS_PORT}`,
    // Above the load's client idle timeout (CLIENT_IDLE_MS, scripts/lib/drill.mjs): every idle
    // keep-alive connection is closed by its client before the server closes what is left
    // (docs/operations.md, "Rollouts"). The balancer follows readiness every 200 ms.
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: '15000',
    RPC_TIMEOUT_MS,
  },
);

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
  const env = r.service === 'sandboxes' ? { ...ENV, PORT: String(SANDBOXES_PORT) } : envOf(r);
  const { child, exited } = launchLogged(product.entryOf(r.service), env, path.join(RUN_DIR, `${r.label}.log`));
  r.child = child;
  r.exited = exited;
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
  await dropRun(DRILL, SERVICES);
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
  const closed = answers.filter((a) => a.status === 0).length - hangs;
  const coded5xx = answers.filter((a) => a.status >= 500 && a.code).length;
  // Each failure with the correlation id it was sent with, to find it in the replicas' logs.
  writeFileSync(path.join(RUN_DIR, 'failures.json'), JSON.stringify(failed, null, 2));
  const slowest = Math.max(0, ...answers.map((a) => a.end - a.start));
  const uncoded = answers.filter((a) => a.status >= 500 && !a.code).length;
  const badExits = exits.filter((e) => !KILLING && e.code !== 0);

  console.log(`\n== ${KILLING ? 'node-loss' : 'rolling-restart'} drill results ==`);
  console.log(`restarts: ${exits.length} (${ROUNDS} round(s) of ${restarted.length} replicas), ${SIGNAL}`);
  console.log(`load: ${answers.length} requests ${JSON.stringify(byStatus)}; sign-ups ${signups.ok} ok, ${signups.failed} failed; slowest answer ${slowest} ms`);
  console.log(`failed requests: ${failed.length}${failed.length ? ` ${JSON.stringify(byWhat)}` : ''}`);
  console.log(`of which: 5xx with an error code ${coded5xx}, 5xx without ${uncoded}, closed sockets (no answer) ${closed}, hangs (nothing within ${ANSWER_LIMIT_MS / 1000} s) ${hangs}; listed with their correlation ids in ${path.join(RUN_DIR, 'failures.json')}`);
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
