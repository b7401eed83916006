#!/usr/bin/env node
// Load test of the offer-wall postback path against a running product (it starts nothing itself),
// measured against what the same Postgres does with pgbench's single-row insert in the same run.
// Signs postbacks with the sandbox credentials through the built provider modules of the webhooks
// service, so the target must run its walls in sandbox mode. See bench/README.md.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuPerOperation, cpuSnapshot, ownCpuMs, processCpuMs } from './lib/cpu-by-process.mjs';
import { leanLoad } from './lib/lean-load.mjs';
import { wrkInstalled, wrkLoad } from './lib/wrk-load.mjs';
import { benchUser as signedUpUser, env, fmt, GATEWAY_URL, liveStream, percentile, root, session, sleep } from './lib/product-client.mjs';

const require = createRequire(import.meta.url);
const TARGET_URL = env('BENCH_TARGET_URL', GATEWAY_URL).replace(/\/$/, '');
const SIGNING_ORIGIN = new URL(env('BENCH_PUBLIC_URL', GATEWAY_URL)).origin;
const PROVIDER = env('BENCH_PROVIDER', 'cpx');
const REQUESTS = Number(env('BENCH_REQUESTS', '20000'));
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const DUPLICATE_SHARE = Number(env('BENCH_DUPLICATE_SHARE', '0.1'));
const PGBENCH_DATABASE_URL = env('PGBENCH_DATABASE_URL', env('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/esim_rewards'));
const PGBENCH_SECONDS = Number(env('PGBENCH_SECONDS', '10'));
const SETTLE_TIMEOUT_MS = Number(env('BENCH_SETTLE_TIMEOUT_MS', '180000'));
const WARMUP_REQUESTS = Number(env('BENCH_WARMUP_REQUESTS', '2000'));
// The load generator: wrk (C) where it is installed, else lib/lean-load.mjs (Node). On two cores
// it takes its CPU from the product: lean-load 0.03-0.05 ms a request, wrk less.
const LOAD = env('BENCH_LOAD', wrkInstalled() ? 'wrk' : 'node');
if (LOAD !== 'wrk' && LOAD !== 'node') throw new Error(`BENCH_LOAD=${LOAD}: wrk or node`);
const load = LOAD === 'wrk' ? wrkLoad : leanLoad;

function loadSigning() {
  try {
    const { OFFERWALL_PROVIDERS } = require(path.join(root, 'services/webhooks/dist/postbacks/providers/index.js'));
    const { sandboxCredentials } = require(path.join(root, 'services/webhooks/dist/sandbox/sandbox-credentials.js'));
    const provider = OFFERWALL_PROVIDERS[PROVIDER];
    if (!provider) throw new Error(`unknown BENCH_PROVIDER ${PROVIDER}: one of ${Object.keys(OFFERWALL_PROVIDERS).join(', ')}`);
    return { provider, credentials: sandboxCredentials(PROVIDER) };
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND') throw new Error('services/webhooks/dist is missing: run "npm run build" first');
    throw err;
  }
}

/**
 * pgbench's single-row insert on the product's Postgres, at the same connection count: one
 * INSERT of one row per transaction into a table of its own (created and dropped here).
 */
async function pgbenchInsertTps() {
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const schema = `bench_pgbench_${randomBytes(3).toString('hex')}`;
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  const script = path.join(os.tmpdir(), `${schema}.sql`);
  try {
    await db.query(`CREATE SCHEMA ${schema}`);
    await db.query(`CREATE TABLE ${schema}.inserts (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), note text NOT NULL)`);
    await fs.writeFile(script, `INSERT INTO ${schema}.inserts (note) VALUES ('postback');\n`);
    const args = ['-n', '-c', String(CONNECTIONS), '-j', String(Math.min(CONNECTIONS, os.cpus().length)), '-T', String(PGBENCH_SECONDS), '-f', script, PGBENCH_DATABASE_URL];
    const out = await new Promise((resolve, reject) => {
      const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.stderr.on('data', (c) => (text += c));
      child.on('error', (err) => reject(new Error(`pgbench could not run (${err.message}): install postgresql-client or set BENCH_SKIP_PGBENCH=1`)));
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`))));
    });
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out) ?? /tps = ([\d.]+)/.exec(out);
    if (!tps) throw new Error(`no tps in pgbench's output:\n${out}`);
    return Number(tps[1]);
  } finally {
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await db.end();
    await fs.rm(script, { force: true });
  }
}

/**
 * The floor under the ingestion service's HTTP work: a bare Node server (node:http, no framework)
 * answering the ingestion's plain-text `1` to the same planned requests, over the same connections
 * from the same load generator, measured right after the product's load (after a first pass to warm
 * it up). Its CPU per request beside the ingestion service's says how much of that service's time
 * is the HTTP exchange itself (parsing, the write, the kernel's TCP) and how much the ingestion's.
 */
async function bareHttpBaseline(paths) {
  const server = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:http').createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': 1 }); res.end('1'); });
       s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const port = await new Promise((resolve, reject) => {
      server.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
      server.once('exit', (code) => reject(new Error(`the bare HTTP server exited ${code}`)));
    });
    // Warmed as the product was: a server just started runs its first thousands of requests unoptimised.
    await load({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, paths });
    const before = processCpuMs(server.pid);
    const started = performance.now();
    const answered = await load({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, paths });
    const seconds = (performance.now() - started) / 1000;
    return { msPerRequest: (processCpuMs(server.pid) - before) / answered.requests.total, perSecond: answered.requests.total / seconds, p99: answered.latency.p99 };
  } finally {
    server.kill();
  }
}

/** A user for the load; the ingestion service learns of it from the same event as rewards: give it the same moment. */
async function benchUser(call, fresh = false) {
  const user = await signedUpUser(call, { fresh });
  await sleep(500);
  return user;
}

const { provider, credentials } = loadSigning();
const offer = { id: 'bench', name: 'Survey (benchmark)', category: 'survey', points: 1 };
const signedPath = (userId) => {
  const url = provider.sign(credentials, { userId, transactionId: `bench-${randomUUID()}`, action: 'credit', offer, userIp: '203.0.113.7' }, `${SIGNING_ORIGIN}/webhooks/offerwalls/${PROVIDER}`);
  return url.slice(SIGNING_ORIGIN.length);
};

// 0. The users: one takes the load, one is probed for the time from answer to visible credit.
const call = session();
const user = await benchUser(call);
const probeCall = session();
const probeUser = await benchUser(probeCall, true);

// A warm-up of BENCH_WARMUP_REQUESTS postbacks to the load user, not measured: the services run
// for days, and the first thousand postbacks after a start run code the JIT has not compiled yet.
if (WARMUP_REQUESTS > 0) {
  const before = (await call('GET', '/api/user')).points;
  const started = performance.now();
  const warm = await load({ url: TARGET_URL, connections: CONNECTIONS, paths: Array.from({ length: WARMUP_REQUESTS }, () => signedPath(user.id)) });
  // A product that refuses the warm-up would refuse the load too: say so now, not after the settle timeout.
  if (warm['2xx'] !== WARMUP_REQUESTS) throw new Error(`warm-up: ${warm['2xx']} of ${WARMUP_REQUESTS} postbacks answered 2xx (${warm.non2xx} other, ${warm.errors} errors, ${warm.timeouts} timeouts)`);
  while ((await call('GET', '/api/user')).points < before + WARMUP_REQUESTS && performance.now() - started < SETTLE_TIMEOUT_MS) await sleep(100);
  console.log(`warm-up: ${WARMUP_REQUESTS} postbacks in ${fmt((performance.now() - started) / 1000, 1)} s (not measured)`);
}

// 1. The product's tables as a vacuumed database has them. Where autovacuum is off (it is off on
// the machine docs/earning.md's figures come from), the rows earlier runs updated stay dead in the
// outbox's index, and index-only scans (balances, the admin rank) visit the heap for every entry:
// each run would measure the bloat its predecessors left. BENCH_SKIP_VACUUM=1 takes it as it is.
if (!process.env.BENCH_SKIP_VACUUM) {
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  const [{ autovacuum }] = (await db.query('SHOW autovacuum')).rows;
  const started = performance.now();
  await db.query('VACUUM (ANALYZE)');
  // And a checkpoint: each run then starts with no page written since one, as the first run did.
  await db.query('CHECKPOINT');
  await db.end();
  console.log(`vacuum: VACUUM (ANALYZE) and CHECKPOINT of ${PGBENCH_DATABASE_URL} in ${fmt((performance.now() - started) / 1000, 1)} s (autovacuum ${autovacuum})`);
}

// 2. What the database does on its own, on this machine, now: before the load and again after it
// (below). The speed of this virtual machine drifts by a third within minutes; the ratio is taken
// against the mean of the two, so a drift during the run moves both sides alike.
const pgbenchRuns = [];
async function pgbench(when) {
  if (process.env.BENCH_SKIP_PGBENCH) return;
  console.log(`pgbench ${when}: single-row INSERT transactions, ${CONNECTIONS} connections, ${PGBENCH_SECONDS} s, ${PGBENCH_DATABASE_URL}`);
  pgbenchRuns.push(await pgbenchInsertTps());
  console.log(`pgbench ${when}: ${fmt(pgbenchRuns.at(-1))} transactions/s`);
}
await pgbench('before the load');

const startPoints = (await call('GET', '/api/user')).points;
const sent = [];

/**
 * Each request: a new signed transaction, or (DUPLICATE_SHARE of the time) a replay of one planned
 * before it. Signed before the load starts: the provider's signing (md5, URL building) is not the
 * product's work, and on the shared two cores it would take CPU from what is measured.
 */
const planned = [];
for (let i = 0; i < REQUESTS; i++) {
  if (sent.length > 0 && Math.random() < DUPLICATE_SHARE) planned.push(sent[Math.floor(Math.random() * sent.length)]);
  else {
    const route = signedPath(user.id);
    sent.push(route);
    planned.push(route);
  }
}
/**
 * While the load runs: one probe postback at a time for the probe user; once answered, its task is
 * looked for on GET /api/tasks until it shows. The samples are answer → visible. The probe waits
 * for the user's live stream to carry the new balance before it asks, and only then polls (every
 * 10 ms, until the task shows): polling from the answer on was ~20 requests per sample through the
 * gateway to rewards, on the same two cores as the load. Rewards writes the task and the balance
 * in one transaction and announces both after it commits, so the first GET usually shows it; the
 * figure is an upper bound (the announcement's trip and one GET after the task was visible).
 */
let loadDone = false;
const visibleAfter = [];
let probeFailures = 0;
async function probe() {
  // Without the live stream (a gateway that does not serve it), the probe polls from the answer on.
  const live = await liveStream(probeCall).catch((err) => {
    console.log(`probe: no live stream (${err.message}); polling GET /api/tasks from each answer`);
    return null;
  });
  let expected = (await probeCall('GET', '/api/tasks')).length;
  let points = (await probeCall('GET', '/api/user')).points;
  try {
    while (!loadDone) {
      const res = await fetch(`${TARGET_URL}${signedPath(probeUser.id)}`);
      await res.text();
      const answeredAt = performance.now();
      if (res.status !== 200) {
        probeFailures++;
        continue;
      }
      expected++;
      points++;
      // Without a stream event within a few seconds, polling alone still finds it.
      await live?.next((e) => e.user.points >= points, 5000);
      while ((await probeCall('GET', '/api/tasks')).length < expected) await sleep(10);
      visibleAfter.push(performance.now() - answeredAt);
      await sleep(20);
    }
  } finally {
    live?.close();
  }
}

console.log(
  `postbacks: ${REQUESTS} requests over ${CONNECTIONS} connections to ${TARGET_URL}/webhooks/offerwalls/${PROVIDER} (signed for ${SIGNING_ORIGIN}), ~${Math.round(DUPLICATE_SHARE * 100)}% replays, user ${user.id}`,
);
/** The database's WAL counters (pg_stat_wal): what the load wrote, per credit, at the end. */
async function walCounters() {
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  try {
    const [row] = (await db.query('SELECT wal_records::float8 AS records, wal_fpi::float8 AS fpi, wal_bytes::float8 AS bytes FROM pg_stat_wal')).rows;
    return row;
  } finally {
    await db.end();
  }
}
const walBefore = await walCounters();
const cpuBefore = cpuSnapshot(PGBENCH_DATABASE_URL);
const ownCpuBefore = ownCpuMs();
const started = performance.now();
const probing = probe();
const result = await load({ url: TARGET_URL, connections: CONNECTIONS, paths: planned });
const answeredIn = (performance.now() - started) / 1000;
loadDone = true;
await probing;

// 3. Until the balance shows every unique transaction once; then a while longer, to see nothing more arrives.
const unique = new Set(sent).size;
let points = startPoints;
while (points - startPoints < unique && performance.now() - started < SETTLE_TIMEOUT_MS) {
  await sleep(50);
  points = (await call('GET', '/api/user')).points;
}
const creditedIn = (performance.now() - started) / 1000;
const ownCpu = ownCpuMs() - ownCpuBefore;
const cpuAfter = cpuSnapshot(PGBENCH_DATABASE_URL);
const walAfter = await walCounters();
await sleep(2000);
points = (await call('GET', '/api/user')).points;
const credited = points - startPoints;
const cpuParts = cpuPerOperation(cpuBefore, cpuAfter, Math.max(1, credited));
const cpuLine = cpuParts.length
  ? `${cpuParts.map((r) => `${r.part} ${fmt(r.ms, 3)}`).join(', ')}; load generator (${LOAD}) ${fmt(ownCpu / Math.max(1, credited), 3)} (ms per credit, from the first request to the last credit visible; pg:<service> = its Postgres backends)`
  : 'n/a (needs Linux /proc)';
const walPer = (key) => (walAfter[key] - walBefore[key]) / Math.max(1, credited);
const creditsPerSecond = credited / creditedIn;
await pgbench('after the load');
const bare = process.env.BENCH_SKIP_BARE_HTTP ? null : await bareHttpBaseline(planned);
const webhooksPerRequest = (cpuParts.find((r) => r.part === 'webhooks')?.ms ?? NaN) * (Math.max(1, credited) / result.requests.total);
const pgbenchTps = pgbenchRuns.length ? pgbenchRuns.reduce((a, b) => a + b, 0) / pgbenchRuns.length : NaN;
const ratio = creditsPerSecond / pgbenchTps;
const exact = credited === unique;

console.log(`
answers         ${result.requests.total} in ${fmt(answeredIn, 1)} s (${result['2xx']} 2xx, ${result.non2xx} other, ${result.errors} errors, ${result.timeouts} timeouts): ${fmt(result.requests.total / answeredIn)} answers/s
answer latency  p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms   (target p99 <= 50 ms: ${result.latency.p99 <= 50 ? 'met' : 'MISSED'})
credits         ${credited} in ${fmt(creditedIn, 1)} s from the first request: ${fmt(creditsPerSecond)} credits/s (${unique} unique transactions, ${result.requests.total - unique} replays)
answer→visible  p50 ${fmt(percentile(visibleAfter, 50), 1)} ms, p99 ${fmt(percentile(visibleAfter, 99), 1)} ms over ${visibleAfter.length} probes (GET /api/tasks)${probeFailures ? `, ${probeFailures} probes not answered 200` : ''}
CPU per credit  ${cpuLine}
WAL per credit  ${fmt(walPer('bytes') / 1024, 1)} KB, ${fmt(walPer('records'), 1)} records, ${fmt(walPer('fpi'), 2)} full-page images (whole server, pg_stat_wal)
bare HTTP       ${bare ? `a bare node:http server answering the same ${result.requests.total} requests: ${fmt(bare.msPerRequest, 3)} ms of CPU a request (${fmt(bare.perSecond)} answers/s, p99 ${bare.p99} ms); the ingestion service ${fmt(webhooksPerRequest, 3)} ms a request, ${fmt(webhooksPerRequest / bare.msPerRequest, 1)}× bare` : 'skipped (BENCH_SKIP_BARE_HTTP)'}
pgbench         ${fmt(pgbenchTps)} single-row insert transactions/s (mean of ${pgbenchRuns.map((t) => fmt(t)).join(' before and ')} after the load)
ratio           credits/s = ${fmt(ratio * 100, 1)}% of pgbench TPS   (target >= 25%: ${ratio >= 0.25 ? 'met' : 'MISSED'})
exactly once    balance grew by ${credited} points for ${unique} unique transactions: ${exact ? 'OK, one credit each' : 'MISMATCH'}`);
process.exitCode = exact && result.non2xx === 0 && result.errors === 0 ? 0 : 1;
