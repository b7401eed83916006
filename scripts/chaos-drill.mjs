#!/usr/bin/env node
// The chaos drill (docs/runbook.md, "The chaos drill"): the whole product from its built output,
// as scripts/start-all.mjs runs it, but on offset ports and in a database, exchange, queue prefix
// and Redis prefix of its own, so it never touches a developer's running instance. For a while
// (--seconds, default 300) a mixed load runs on loopback: sign-ups through the emulated email
// flow, sandbox postbacks and their replays (some large enough to be held, with a hold short enough
// to be released during the run), redemptions, card purchases through the Stripe emulator. The
// provider emulators run beside it as they do under npm start (the sandboxes process, reaching the
// drill's database directly: the providers' own outages are not what the drill is about, so it
// neither kills nor cuts them). Meanwhile services are SIGKILLed at random (seeded) and restarted, and the database
// and the broker are each cut once (every service reaches them through a TCP proxy of
// libs/testing). Then it waits for quiescence and prints what must hold; it exits 1 if anything
// does not:
//   - credits exact: each postback the walls saw accepted is one ledger credit, no more, no less;
//   - holds released once: every held credit that is due was released, none twice, some during the load;
//   - the ledger balanced (services/rewards/src/testing/ledger-invariants.ts);
//   - nothing stuck: no redemption, provisioning or paid purchase left in progress, outboxes drained;
//   - no 5xx answer outside the windows in which a service was down or a server cut.
// Needs the backend built (npm run build:backend) and Postgres, RabbitMQ and Redis running.
//   node scripts/chaos-drill.mjs [--seconds 300] [--seed 1] [--kills 11] [--port-offset 700] [--hold-seconds 20] [--keep]
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropRun, drillEnv, drillRun, launchLogged, option, recordAnswers, requireBuilt, sleep } from './lib/drill.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SECONDS = Number(option('seconds', 300));
const SEED = Number(option('seed', 1));
const KILLS = Number(option('kills', 11));
const OFFSET = Number(option('port-offset', 700));
const SETTLE_SECONDS = Number(option('settle-seconds', 180));
const HOLD_SECONDS = Number(option('hold-seconds', 20));
/** An everyday offer's points, spendable at once; one postback in HELD_SHARE is worth HELD_POINTS and held. */
const POSTBACK_POINTS = 250;
const HOLD_MIN_POINTS = 500;
const HELD_POINTS = 600;
const HELD_SHARE = 0.2;
const KEEP = option('keep', false) === true;
for (const [name, value, min] of [['seconds', SECONDS, 30], ['seed', SEED, 0], ['kills', KILLS, 0], ['port-offset', OFFSET, 1], ['settle-seconds', SETTLE_SECONDS, 10], ['hold-seconds', HOLD_SECONDS, 1]]) {
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} must be a whole number ≥ ${min}`);
    process.exit(2);
  }
}

requireBuilt(['libs/contracts/dist/ports/services.js', 'libs/testing/dist/tcp-proxy.js', 'services/webhooks/dist/postbacks/providers/index.js', 'sandboxes/dist/main.js']);
// Ports, entry points and the emulators' process as scripts/start-all.mjs has them.
const product = await import('./lib/product-env.mjs');
const { SERVICES } = product;
const { TcpProxy } = require(path.join(root, 'libs/testing/dist/tcp-proxy.js'));
const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
const { sandboxCredentials } = require(path.join(root, 'services/webhooks/dist/offerwalls/sandbox-credentials.js'));
const { OFFERWALL_IDS, STRIPE_SANDBOX_PUBLISHABLE_KEY } = require(path.join(root, 'libs/contracts/dist/index.js'));
const { Client } = require('pg');
const amqplib = require('amqplib');
/** mulberry32: a small seeded generator, so that a run's schedule of faults can be replayed with --seed. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = seeded(SEED);
const pick = (list, r = rng) => list[Math.floor(r() * list.length)];

// ---- Where the drill's product lives -------------------------------------------------------
const DRILL = drillRun('chaos', 'chaos-drill');
const { run: RUN, dir: RUN_DIR, baseDatabase: BASE_DATABASE } = DRILL;
const BASE_AMQP = new URL(DRILL.amqpUrl);
const portOf = (name) => product.portOf(name, { offset: OFFSET });
const opsPortOf = (name) => product.opsPortOf(name, { offset: OFFSET });
const GATEWAY_PORT = portOf('gateway');
const GATEWAY = `http://127.0.0.1:${GATEWAY_PORT}`;
const directDatabaseUrl = DRILL.database.toString();

// bench/lib/product-client.mjs reads where the product and its mail are when it is loaded.
process.env.GATEWAY_URL = GATEWAY;
process.env.MAIL_OUTBOX_DIR = DRILL.mailDir;

// ---- Every answer, with when it was asked and answered -------------------------------------
/** status 0: no answer (refused connection, reset, timeout). Bounded: no request of the load waits more than 30 s. */
const { answers, realFetch } = recordAnswers({ limitMs: 30_000, routeOf: (url) => url.pathname.replace(/\/[0-9a-f-]{20,}|\/pi_[A-Za-z0-9]+/g, '/:id') });
const { benchUser, session } = await import('../bench/lib/product-client.mjs');

// ---- The product's processes -----------------------------------------------------------------
const dbProxy = await new TcpProxy(BASE_DATABASE.hostname, Number(BASE_DATABASE.port || 5432)).start();
const amqpProxy = await new TcpProxy(BASE_AMQP.hostname, Number(BASE_AMQP.port || 5672)).start();
const proxied = (base, proxy) => {
  const u = new URL(base);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u;
};
const databaseUrl = proxied(BASE_DATABASE, dbProxy);
databaseUrl.pathname = `/${RUN}`;

const ENV = drillEnv(DRILL, { databaseUrl, amqpUrl: proxied(BASE_AMQP, amqpProxy), gateway: GATEWAY, logLevel: 'warn' }, {
  RATE_LIMIT_PAYMENT_IP: '100000/600',
  RATE_LIMIT_PAYMENT_USER: '1000/600',
  // A provisioning whose esim process was killed is taken up again after its lease, not two minutes later.
  ESIM_PROVISIONING_LEASE_MS: '5000',
  ESIM_PROVISIONING_RETRY_MS: '1000',
  // Held credits (docs/earning.md), set here whatever the defaults become: the drill's large
  // postbacks are held and released within the run, the everyday ones are spendable at once, so
  // the redemptions still find users with 1000 spendable points.
  CREDIT_HOLD_MIN_POINTS: String(HOLD_MIN_POINTS),
  CREDIT_HOLD_SECONDS: String(HOLD_SECONDS),
  CREDIT_RELEASE_INTERVAL_MS: '1000',
});
const sandboxes = product.sandboxesProcess(ENV, { offset: OFFSET });
ENV.SANDBOXES_URL = sandboxes.url;
// The emulators keep their schemas (sandbox_*) in the drill's database, dropped with it, and reach
// it directly, not through the proxy the drill cuts.
const SANDBOXES_ENV = { ...sandboxes.env, DATABASE_URL: directDatabaseUrl };

const envOf = (name) => (name === 'sandboxes' ? SANDBOXES_ENV : product.serviceEnv(ENV, name, { offset: OFFSET }));
/** Every process the drill runs; only the services are killed. */
const PROCESSES = ['sandboxes', ...SERVICES];

const procs = new Map();
let stopping = false;
function launch(name) {
  const launched = launchLogged(product.entryOf(name), envOf(name), path.join(RUN_DIR, `${name}.log`));
  const { child } = launched;
  const exited = launched.exited.then(({ code, signal }) => signal ?? code);
  const entry = { child, exited, killed: false };
  procs.set(name, entry);
  void exited.then((how) => {
    if (!stopping && !entry.killed) {
      unexpectedExits.push(`${name} exited by itself (${how}) at ${elapsed()}s`);
      console.log(`${stamp()} ${name} exited by itself (${how}); restarting it`);
      void restart(name);
    }
  });
  return entry;
}
const unexpectedExits = [];

async function isReady(name) {
  // The gateway and the webhooks service answer /health only on their operator port.
  const res = await realFetch(`http://127.0.0.1:${opsPortOf(name)}/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  return res?.status === 200;
}
async function untilReady(names, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    while (!(await isReady(name))) {
      if (Date.now() > deadline) throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (see ${path.join(RUN_DIR, `${name}.log`)})`);
      await sleep(200);
    }
  }
}
async function restart(name) {
  launch(name);
  await untilReady([name]);
}

const portFree = (port) =>
  new Promise((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

// ---- Time and fault windows ----------------------------------------------------------------
let t0 = Date.now();
const elapsed = () => ((Date.now() - t0) / 1000).toFixed(1);
const stamp = () => `[${elapsed().padStart(6)}s]`;
/** [start, end] of each fault: from the kill or cut until everything is ready again, plus GRACE_MS. */
const windows = [];
const GRACE_MS = 2000;
const faults = [];

async function killAndRestart(name) {
  const entry = procs.get(name);
  const start = Date.now();
  entry.killed = true;
  entry.child.kill('SIGKILL');
  await entry.exited;
  const downMs = 500 + Math.floor(rng() * 2500);
  await sleep(downMs);
  launch(name);
  await untilReady([name]);
  // The gateway holds no state of its own; a restarted backend service is ready when its broker link is.
  windows.push([start, Date.now() + GRACE_MS]);
  faults.push(`${name} killed, back after ${((Date.now() - start) / 1000).toFixed(1)} s`);
  console.log(`${stamp()} SIGKILL ${name}: down ${downMs} ms, ready again after ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

async function cut(what, proxy) {
  const start = Date.now();
  const holdMs = 3000 + Math.floor(rng() * 5000);
  proxy.refuse();
  console.log(`${stamp()} ${what} cut for ${holdMs} ms`);
  await sleep(holdMs);
  proxy.accept();
  await untilReady(PROCESSES);
  windows.push([start, Date.now() + GRACE_MS]);
  faults.push(`${what} cut ${holdMs} ms, all ready after ${((Date.now() - start) / 1000).toFixed(1)} s`);
  console.log(`${stamp()} ${what} back; every service ready after ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

/** The faults in the middle of the load (10 % to 85 % of it), one after another, in seeded slots. */
async function chaos(loadEnd) {
  const begin = t0 + SECONDS * 100;
  const span = SECONDS * 750;
  const events = [...Array.from({ length: KILLS }, () => ({ kind: 'kill', service: pick(SERVICES) })), { kind: 'db' }, { kind: 'broker' }];
  // Seeded shuffle, then one event per slot at a seeded point in it.
  for (let i = events.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [events[i], events[j]] = [events[j], events[i]];
  }
  const slot = span / events.length;
  for (const [i, e] of events.entries()) {
    const at = begin + i * slot + rng() * slot * 0.5;
    if (Date.now() < at) await sleep(at - Date.now());
    if (Date.now() > loadEnd) break;
    if (e.kind === 'kill') await killAndRestart(e.service);
    else if (e.kind === 'db') await cut('Postgres', dbProxy);
    else await cut('RabbitMQ', amqpProxy);
  }
}

// ---- The load ------------------------------------------------------------------------------
const users = []; // { id, call }
const postbacks = new Map(); // `${provider}:${tx}` → { url, accepted, settled }
const redemptions = []; // { call, key, settled, status }
const purchases = { created: 0, paid: 0, confirmed: 0, failed: 0 };
const signups = { ok: 0, failed: 0 };
const PASSING_CAPTCHA = 'XXXX.DUMMY.TOKEN.XXXX';

async function signUp() {
  const call = session();
  try {
    const user = await benchUser(call, { fresh: true });
    users.push({ id: user.id, call });
    signups.ok++;
  } catch {
    signups.failed++;
  }
}

function newPostback(userId, r) {
  const provider = pick(OFFERWALL_IDS, r);
  const tx = `chaos-${randomUUID()}`;
  const points = r() < HELD_SHARE ? HELD_POINTS : POSTBACK_POINTS;
  const url = OFFERWALL_PROVIDERS[provider].sign(
    sandboxCredentials(provider),
    { userId, transactionId: tx, action: 'credit', offer: { id: 'chaos', name: 'Survey (chaos drill)', category: 'survey', points }, userIp: '203.0.113.7' },
    `${GATEWAY}/webhooks/offerwalls/${provider}`,
  );
  const pb = { key: `${provider}:${tx}`, url, points, accepted: false, settled: false };
  postbacks.set(pb.key, pb);
  return pb;
}

/** As a wall's server calls: a 2xx or 4xx settles it; a 5xx or no answer is retried later. */
async function deliver(pb) {
  const res = await fetch(pb.url).catch(() => null);
  if (!res) return;
  await res.text().catch(() => '');
  if (res.status === 200) pb.accepted = true;
  if (res.status < 500) pb.settled = true;
}

async function earner(r, running) {
  while (running()) {
    if (users.length === 0) {
      await sleep(200);
      continue;
    }
    const roll = r();
    const unsettled = roll < 0.1 ? [...postbacks.values()].filter((p) => !p.settled) : [];
    if (unsettled.length > 0) await deliver(pick(unsettled, r));
    else if (roll < 0.25 && postbacks.size > 0) await deliver(pick([...postbacks.values()], r)); // a replay
    else await deliver(newPostback(pick(users, r).id, r));
    await sleep(50 + r() * 100);
  }
}

async function redeemOnce(red) {
  try {
    await red.call('POST', '/api/verify-captcha', { token: PASSING_CAPTCHA });
  } catch {
    return;
  }
  const res = await fetch(`${GATEWAY}/api/redeem-points`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: red.call.cookie(), 'idempotency-key': red.key },
    body: JSON.stringify({ planTier: '1GB', purchaseType: 'new', country: 'US' }),
  }).catch(() => null);
  if (!res) return;
  await res.text().catch(() => '');
  red.status = res.status;
  if (res.status < 500) red.settled = true;
}

async function redeemer(r, running) {
  while (running()) {
    await sleep(2000 + r() * 2000);
    const open = redemptions.find((x) => !x.settled);
    if (open) {
      await redeemOnce(open);
      continue;
    }
    const user = users.length > 0 ? pick(users, r) : undefined;
    if (!user) continue;
    const points = await user.call('GET', '/api/user').then((u) => u.points, () => 0);
    if (points < 1000) continue;
    const red = { call: user.call, key: randomUUID(), settled: false, status: 0 };
    redemptions.push(red);
    await redeemOnce(red);
  }
}

async function buyer(r, running) {
  while (running()) {
    await sleep(2500 + r() * 2500);
    const user = users.length > 0 ? pick(users, r) : undefined;
    if (!user) continue;
    try {
      const payment = await user.call('POST', '/api/create-esim-payment', { planType: '1GB', country: 'US' });
      purchases.created++;
      const body = new URLSearchParams({ key: STRIPE_SANDBOX_PUBLISHABLE_KEY, client_secret: payment.clientSecret, payment_method: 'pm_card_visa', return_url: `${GATEWAY}/success` });
      // The sandbox card form's relay to the Stripe emulator, from our own origin as the SPA sends it.
      const confirmed = await fetch(`${GATEWAY}/sandbox/stripe/v1/payment_intents/${payment.paymentIntentId}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: GATEWAY, cookie: user.call.cookie() },
        body,
      });
      await confirmed.text();
      if (!confirmed.ok) throw new Error(`confirm ${confirmed.status}`);
      purchases.paid++;
      await user.call('POST', '/api/confirm-esim-purchase-by-intent', { paymentIntentId: payment.paymentIntentId });
      purchases.confirmed++;
    } catch {
      purchases.failed++;
    }
  }
}

// ---- Checks --------------------------------------------------------------------------------
const db = () => new Client({ connectionString: directDatabaseUrl });
async function scalar(client, sql, params = []) {
  const { rows } = await client.query(sql, params);
  return Number(Object.values(rows[0] ?? { n: 0 })[0] ?? 0);
}
const SCHEMAS = SERVICES.filter((s) => s !== 'gateway');
async function outboxes(client) {
  const out = {};
  for (const schema of SCHEMAS) {
    const exists = await scalar(client, `SELECT count(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'outbox_events'`, [schema]);
    if (!exists) continue;
    out[schema] = {
      waiting: await scalar(client, `SELECT count(*) FROM "${schema}".outbox_events WHERE published_at IS NULL AND parked_at IS NULL`),
      parked: await scalar(client, `SELECT count(*) FROM "${schema}".outbox_events WHERE parked_at IS NOT NULL`),
    };
  }
  return out;
}
async function inProgress(client) {
  return {
    redemptions: await scalar(client, `SELECT count(*) FROM rewards.redemptions WHERE status = 'processing'`),
    provisionings: await scalar(client, `SELECT count(*) FROM esim.provisionings WHERE status IN ('pending', 'in_progress')`),
    paidPurchases: await scalar(client, `SELECT count(*) FROM payments.esim_purchases WHERE status = 'processing'`),
  };
}
async function credits(client) {
  const { rows } = await client.query(`SELECT reference, count(*)::int AS n FROM rewards.ledger_transfers WHERE kind = 'offerwall_credit' GROUP BY reference`);
  return new Map(rows.map((r) => [r.reference, r.n]));
}
/**
 * The held credits (docs/earning.md, "Held credits") and their releases: each credit is released at
 * most once, never before its time, and (with `overdueMs` of slack for the release job's interval
 * and a restart of rewards) every one that is due has been. `during` counts the releases made
 * before `until` (the end of the load): the holds ran under the faults, not only afterwards.
 * `dueBy` counts the credits not released yet that are due by `by`.
 */
async function heldCredits(client, { until, overdueMs, by = Date.now() }) {
  const { rows } = await client.query(
    `WITH held AS (
       SELECT c.reference, c.held_until,
              (SELECT count(*) FROM rewards.ledger_transfers r WHERE r.kind = 'hold_release' AND r.reference = c.id::text) AS releases,
              (SELECT min(r.created_at) FROM rewards.ledger_transfers r WHERE r.kind = 'hold_release' AND r.reference = c.id::text) AS released_at
         FROM rewards.ledger_transfers c
        WHERE c.kind = 'offerwall_credit' AND c.held_until IS NOT NULL)
     SELECT coalesce(array_agg(reference), '{}') AS refs,
            count(*) FILTER (WHERE releases > 0)::int AS released,
            count(*) FILTER (WHERE releases > 1)::int AS twice,
            count(*) FILTER (WHERE released_at < held_until)::int AS early,
            count(*) FILTER (WHERE releases = 0 AND held_until <= now() - make_interval(secs => $2::double precision / 1000))::int AS overdue,
            count(*) FILTER (WHERE released_at <= $1)::int AS during,
            count(*) FILTER (WHERE releases = 0 AND held_until <= $3)::int AS "dueBy",
            count(*) FILTER (WHERE releases = 0 AND held_until > now())::int AS "notDue",
            (SELECT count(*) FROM rewards.ledger_holds WHERE available_at <= now() - make_interval(secs => $2::double precision / 1000))::int AS waiting
       FROM held`,
    [new Date(until), overdueMs, new Date(by)],
  );
  const { refs, ...counts } = rows[0];
  return { refs: new Set(refs), ...counts };
}

/** Messages in each service's dead-letter queue (events whose handler kept failing). */
async function deadLetters() {
  const conn = await amqplib.connect(BASE_AMQP.toString());
  const out = {};
  try {
    for (const s of SERVICES) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      // A service that consumes nothing has no such queue: the broker answers 404 and closes the channel.
      const found = await ch.checkQueue(`${RUN}.${s}.events.dlq`).catch(() => null);
      if (found) out[s] = found.messageCount;
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close();
  }
  return out;
}

async function ledgerBalanced(client) {
  // The rewards tests' own invariants (Jest's expect, which they are written with).
  require(path.join(root, 'libs/testing/ts-register.cjs'));
  globalThis.expect ??= require('expect').expect;
  const { expectLedgerInvariants } = require(path.join(root, 'services/rewards/src/testing/ledger-invariants.ts'));
  await client.query('SET search_path TO rewards');
  try {
    await expectLedgerInvariants({ query: async (sql, params) => (await client.query(sql, params)).rows });
    return { ok: true };
  } catch (err) {
    return { ok: false, why: err.message.split('\n').slice(0, 12).join('\n') };
  }
}

// ---- Run -----------------------------------------------------------------------------------
async function cleanup() {
  stopping = true;
  for (const { child } of procs.values()) child.kill('SIGTERM');
  await Promise.race([Promise.all([...procs.values()].map((p) => p.exited)), sleep(15_000)]);
  for (const { child } of procs.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await dbProxy.stop();
  await amqpProxy.stop();
  if (KEEP) {
    console.log(`kept: database ${RUN}, exchange ${RUN}.events, queues ${RUN}.*, Redis keys ${RUN}:*, logs in ${RUN_DIR}`);
    return;
  }
  await dropRun(DRILL, SERVICES);
}

async function main() {
  for (const name of PROCESSES) {
    if (!(await portFree(portOf(name)))) throw new Error(`port ${portOf(name)} (${name}) is taken: choose another --port-offset`);
    if (!(await portFree(opsPortOf(name)))) throw new Error(`port ${opsPortOf(name)} (${name}) is taken: choose another --port-offset`);
  }
  console.log(`chaos drill ${RUN}: ${SECONDS} s of load, ${KILLS} kills, seed ${SEED}; the product at ${GATEWAY}; logs in ${RUN_DIR}`);
  for (const name of PROCESSES) launch(name);
  await untilReady(PROCESSES, 180_000);
  console.log(`${stamp()} every service and the provider emulators ready`);
  for (let i = 0; i < 3; i++) await signUp();

  t0 = Date.now();
  const loadEnd = t0 + SECONDS * 1000;
  const running = () => Date.now() < loadEnd;
  const loops = [
    ...[1, 2, 3].map((i) => earner(seeded(SEED * 100 + i), running)),
    redeemer(seeded(SEED * 100 + 7), running),
    buyer(seeded(SEED * 100 + 8), running),
    (async () => {
      while (running()) {
        await signUp();
        await sleep(3000);
      }
    })(),
  ];
  const faultsDone = chaos(loadEnd);
  await Promise.all(loops);
  await faultsDone;
  console.log(`${stamp()} load over; walls retry what got no answer, redemptions are retried with their keys`);

  // As the walls and the SPA do after an outage: what got a 5xx or no answer is sent again.
  for (let round = 0; round < 60; round++) {
    const open = [...postbacks.values()].filter((p) => !p.settled);
    const reds = redemptions.filter((x) => !x.settled);
    if (open.length === 0 && reds.length === 0) break;
    for (const pb of open) await deliver(pb);
    for (const red of reds) await redeemOnce(red);
    await sleep(1000);
  }

  const client = db();
  await client.connect();
  const expected = new Set([...postbacks.values()].filter((p) => p.accepted).map((p) => p.key));
  const deadline = Date.now() + SETTLE_SECONDS * 1000;
  let quiet = false;
  while (Date.now() < deadline) {
    const c = await credits(client);
    const busy = await inProgress(client);
    const boxes = await outboxes(client);
    // Every held credit due before the deadline is waited for: with the drill's short holds, all of them.
    const holds = await heldCredits(client, { until: loadEnd, overdueMs: 0, by: deadline });
    quiet = [...expected].every((k) => c.has(k)) && Object.values(busy).every((n) => n === 0) && Object.values(boxes).every((b) => b.waiting === 0) && holds.dueBy === 0 && holds.waiting === 0;
    if (quiet) break;
    await sleep(1000);
  }
  console.log(`${stamp()} ${quiet ? 'quiescent' : `not quiescent after ${SETTLE_SECONDS} s`}`);

  const c = await credits(client);
  const doubled = [...c.values()].filter((n) => n > 1).length;
  const missing = [...expected].filter((k) => !c.has(k)).length;
  const unexpected = [...c.keys()].filter((k) => k.includes(':chaos-') && !expected.has(k)).length;
  const busy = await inProgress(client);
  const boxes = await outboxes(client);
  const ledger = await ledgerBalanced(client);
  const holds = await heldCredits(client, { until: loadEnd, overdueMs: 10_000 });
  const expectedHeld = new Set([...postbacks.values()].filter((p) => p.accepted && p.points >= HOLD_MIN_POINTS).map((p) => p.key));
  const heldWrong = [...expectedHeld].filter((k) => !holds.refs.has(k)).length + [...holds.refs].filter((k) => k.includes(':chaos-') && !expectedHeld.has(k)).length;
  const operatorQueue = {
    redemptions: await scalar(client, `SELECT count(*) FROM rewards.redemptions WHERE status = 'manual_transfer_required'`),
    provisionings: await scalar(client, `SELECT count(*) FROM esim.provisionings WHERE status = 'manual_transfer_required'`),
  };
  const dlq = await deadLetters();
  const redemptionRows = await scalar(client, `SELECT count(*) FROM rewards.redemptions`);
  const activated = await scalar(client, `SELECT count(*) FROM payments.esim_purchases WHERE status = 'activated'`);
  await client.end();

  const inWindow = (a) => windows.some(([s, e]) => a.start <= e && a.end >= s);
  const serverErrors = answers.filter((a) => a.status >= 500);
  const outside = serverErrors.filter((a) => !inWindow(a));
  const byStatus = {};
  for (const a of answers) byStatus[a.status || 'no answer'] = (byStatus[a.status || 'no answer'] ?? 0) + 1;
  const unsettled = [...postbacks.values()].filter((p) => !p.settled).length;

  const checks = [
    ['credits exact: one ledger credit per accepted postback', missing === 0 && doubled === 0 && unexpected === 0, `${expected.size} accepted, ${c.size} credited, ${missing} missing, ${doubled} doubled, ${unexpected} not accepted yet credited`],
    [
      'held credits released once',
      heldWrong === 0 && holds.twice === 0 && holds.early === 0 && holds.overdue === 0 && holds.waiting === 0 && expectedHeld.size > 0 && holds.during > 0,
      `${expectedHeld.size} accepted of ${HELD_POINTS} points (held ${HOLD_SECONDS} s), ${holds.refs.size} held, ${heldWrong} held or not held wrongly, ${holds.released} released (${holds.during} during the load), ${holds.notDue} not due yet, ${holds.twice} twice, ${holds.early} early, ${holds.overdue} overdue (${holds.waiting} still in ledger_holds)`,
    ],
    ['ledger balanced', ledger.ok, ledger.ok ? 'every invariant of ledger-invariants.ts holds' : ledger.why],
    ['nothing stuck', Object.values(busy).every((n) => n === 0), JSON.stringify(busy)],
    ['no dead letters', Object.values(dlq).every((n) => n === 0), JSON.stringify(dlq)],
    ['outboxes drained', Object.values(boxes).every((b) => b.waiting === 0 && b.parked === 0), JSON.stringify(boxes)],
    ['every postback answered in the end', unsettled === 0, `${unsettled} without a 2xx/4xx answer`],
    ['no 5xx outside the fault windows', outside.length === 0, `${outside.length} outside, ${serverErrors.length - outside.length} inside${outside.length ? `: ${outside.slice(0, 10).map((a) => `${a.status} ${a.route} at ${((a.start - t0) / 1000).toFixed(1)}s`).join(', ')}` : ''}`],
    ['no service exited by itself', unexpectedExits.length === 0, unexpectedExits.join('; ') || 'none'],
  ];

  console.log('\n== chaos drill results ==');
  console.log(`faults: ${faults.length} (${faults.join('; ')})`);
  console.log(`load: ${answers.length} requests ${JSON.stringify(byStatus)}`);
  console.log(`sign-ups: ${signups.ok} ok, ${signups.failed} failed; postbacks: ${postbacks.size} transactions, ${expected.size} accepted`);
  console.log(`redemptions: ${redemptions.length} asked, ${redemptionRows} recorded, answers ${JSON.stringify(redemptions.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {}))}; handed to operators ${JSON.stringify(operatorQueue)}`);
  console.log(`card purchases: ${purchases.created} created, ${purchases.paid} paid, ${purchases.confirmed} confirmed, ${activated} activated, ${purchases.failed} failed on the way`);
  const fiveHundreds = {};
  for (const a of serverErrors) fiveHundreds[`${a.status} ${a.route}`] = (fiveHundreds[`${a.status} ${a.route}`] ?? 0) + 1;
  console.log(`5xx answers by route: ${JSON.stringify(fiveHundreds)}`);
  for (const [name, ok, detail] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  return checks.every(([, ok]) => ok);
}

let passed = false;
try {
  passed = await main();
} catch (err) {
  console.error(`chaos drill failed to run: ${err.stack ?? err.message}`);
} finally {
  await cleanup().catch((err) => console.error(`cleanup: ${err.message}`));
}
process.exit(passed ? 0 : 1);
