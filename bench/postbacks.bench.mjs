#!/usr/bin/env node
// Load test of the offer-wall postback path against a running product (it starts nothing itself),
// measured against what the same Postgres does with pgbench's single-row insert in the same run.
// Its postbacks are signed as a sandbox wall signs them (lib/postback-signing.mjs). See bench/README.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuPerOperation, cpuSnapshot, machineCpu, machineCpuPerOperation, ownCpuMs, processCpuMs } from './lib/cpu-by-process.mjs';
import { DISK_STALL_BEYOND_MS, startDiskStallProbe } from './lib/disk-stalls.mjs';
import { leanLoad } from './lib/lean-load.mjs';
import { STALL_BEYOND_MS, startStallProbe } from './lib/machine-stalls.mjs';
import { WRITEBACK_NOTED_MB, startWritebackProbe } from './lib/writeback-bursts.mjs';
import { planPostbacks, postbackSigner } from './lib/postback-signing.mjs';
import { wrkInstalled, wrkLoad } from './lib/wrk-load.mjs';
import {
  benchUser as signedUpUser,
  env,
  flag,
  fmt,
  GATEWAY_URL,
  liveStream,
  percentile,
  pointsReached,
  root,
  session,
  sleep,
} from './lib/product-client.mjs';

const require = createRequire(import.meta.url);
const TARGET_URL = env('BENCH_TARGET_URL', GATEWAY_URL).replace(/\/$/, '');
const SIGNING_ORIGIN = new URL(env('BENCH_PUBLIC_URL', GATEWAY_URL)).origin;
const PROVIDER = env('BENCH_PROVIDER', 'cpx');
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const DUPLICATE_SHARE = Number(env('BENCH_DUPLICATE_SHARE', '0.1'));
const PGBENCH_DATABASE_URL = env('PGBENCH_DATABASE_URL', env('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/esim_rewards'));
const PGBENCH_SECONDS = Number(env('PGBENCH_SECONDS', '10'));
const SETTLE_TIMEOUT_MS = Number(env('BENCH_SETTLE_TIMEOUT_MS', '180000'));
/** The fewest postbacks a round sends, and the warm-up's count (the load's size before it is known). */
const MIN_REQUESTS = 20000;
const WARMUP_REQUESTS = Number(env('BENCH_WARMUP_REQUESTS', String(MIN_REQUESTS)));
// How long each round's load lasts: as long as each pgbench run, so both sides of the ratio are
// rates over windows of the same length. The credits' window also holds the drain after the last
// answer (the last group's wait: answer → visible), which a fixed count of postbacks would make a
// large share of the window on a host that answers fast.
const LOAD_SECONDS = Number(env('BENCH_LOAD_SECONDS', String(PGBENCH_SECONDS)));
/** BENCH_REQUESTS where set: every load's size, the rounds' and step 6's. */
const FIXED_REQUESTS = process.env.BENCH_REQUESTS ? Number(process.env.BENCH_REQUESTS) : undefined;
if (FIXED_REQUESTS !== undefined && !(Number.isInteger(FIXED_REQUESTS) && FIXED_REQUESTS >= 1)) {
  throw new Error(`BENCH_REQUESTS=${process.env.BENCH_REQUESTS}: a whole number of at least 1 (or unset, to load for BENCH_LOAD_SECONDS)`);
}
// Rounds of steps 1-5, each with its own pgbench before and after: a virtual host's speed can
// drift within minutes, so one round's ratio says little; the verdict is on the median.
const ROUNDS = Number(env('BENCH_ROUNDS', '3'));
/** The issue's targets: credits/s at least this share of pgbench TPS, the answer p99 at most P99_TARGET_MS. */
const TARGET_RATIO = 0.25;
const P99_TARGET_MS = 50;
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS=${ROUNDS}: a whole number of at least 1`);
// The load generator: wrk (C) where it is installed, else lib/lean-load.mjs (Node). On two cores
// it takes its CPU from the product: lean-load 0.03-0.05 ms a request, wrk less.
const LOAD = env('BENCH_LOAD', wrkInstalled() ? 'wrk' : 'node');
if (LOAD !== 'wrk' && LOAD !== 'node') throw new Error(`BENCH_LOAD=${LOAD}: wrk or node`);
const load = LOAD === 'wrk' ? wrkLoad : leanLoad;

/**
 * pgbench's per-transaction logs in `dir` (`log.<pid>`, one file a thread): the third field of
 * each line is the transaction's latency in microseconds.
 */
async function pgbenchLatency(dir) {
  const latencies = [];
  for (const f of await fs.readdir(dir)) {
    if (!f.startsWith('log.')) continue;
    for (const line of (await fs.readFile(path.join(dir, f), 'utf8')).split('\n')) {
      const us = Number(line.split(' ')[2]);
      if (line && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) };
}

/**
 * pgbench's single-row insert on the product's Postgres, at the same connection count: one
 * INSERT of one row per transaction into a table of its own (created and dropped here). Answers
 * its TPS and the latency of its transactions (p50, p99, max in ms, from pgbench's own log of
 * every transaction, `-l`): the cheapest durable write this database makes at the load's
 * connection count, the baseline under the answer p99, since a provider's answer also waits for a
 * commit's flush (logging every transaction does not move pgbench's TPS). And what a transaction cost the whole machine's CPU (machineCpu), so a
 * credit's price can be read in transactions: the ratio is about their quotient where both loads
 * keep the cores busy.
 */
async function pgbenchInsert() {
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const schema = `bench_pgbench_${randomBytes(3).toString('hex')}`;
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  // The script and pgbench's logs, removed together.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `${schema}-`));
  const script = path.join(dir, 'insert.sql');
  try {
    await db.query(`CREATE SCHEMA ${schema}`);
    await db.query(
      `CREATE TABLE ${schema}.inserts (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), note text NOT NULL)`,
    );
    await fs.writeFile(script, `INSERT INTO ${schema}.inserts (note) VALUES ('postback');\n`);
    const args = [
      '-n',
      '-c',
      String(CONNECTIONS),
      '-j',
      String(Math.min(CONNECTIONS, os.cpus().length)),
      '-T',
      String(PGBENCH_SECONDS),
      '-l',
      `--log-prefix=${path.join(dir, 'log')}`,
      '-f',
      script,
      PGBENCH_DATABASE_URL,
    ];
    const cpuBefore = machineCpu();
    const out = await new Promise((resolve, reject) => {
      const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.stderr.on('data', (c) => (text += c));
      child.on('error', (err) =>
        reject(new Error(`pgbench could not run (${err.message}): install postgresql-client or set BENCH_SKIP_PGBENCH=1`)),
      );
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`))));
    });
    const cpuAfter = machineCpu();
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out) ?? /tps = ([\d.]+)/.exec(out);
    if (!tps) throw new Error(`no tps in pgbench's output:\n${out}`);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
    return { tps: Number(tps[1]), latency: await pgbenchLatency(dir), cpu: machineCpuPerOperation(cpuBefore, cpuAfter, transactions) };
  } finally {
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await db.end();
    await fs.rm(dir, { recursive: true, force: true });
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
    return {
      msPerRequest: (processCpuMs(server.pid) - before) / answered.requests.total,
      perSecond: answered.requests.total / seconds,
      p99: answered.latency.p99,
    };
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

const signedPath = postbackSigner(PROVIDER, SIGNING_ORIGIN);

// 0. The users: one takes the load, one is probed for the time from answer to visible credit.
const call = session();
const user = await benchUser(call);
const probeCall = session();
const probeUser = await benchUser(probeCall, true);

// A warm-up of BENCH_WARMUP_REQUESTS postbacks to the load user, not measured, which also sizes the
// rounds: the services run for days, and after a start they run code the JIT has not compiled yet.
// The code that runs once a batch (rewards' crediting, the relay) needs many postbacks to get
// there: with a short warm-up the first repetition measures the JIT, not the code.
let warmAnswersPerSecond = 0;
if (WARMUP_REQUESTS > 0) {
  const before = (await call('GET', '/api/user')).points;
  let started = performance.now();
  const warm = await load({
    url: TARGET_URL,
    connections: CONNECTIONS,
    paths: Array.from({ length: WARMUP_REQUESTS }, () => signedPath(user.id)),
    onStart: () => (started = performance.now()),
  });
  // A product that refuses the warm-up would refuse the load too: say so now, not after the settle timeout.
  if (warm['2xx'] !== WARMUP_REQUESTS)
    throw new Error(
      `warm-up: ${warm['2xx']} of ${WARMUP_REQUESTS} postbacks answered 2xx (${warm.non2xx} other, ${warm.errors} errors, ${warm.timeouts} timeouts)`,
    );
  const answeredIn = (performance.now() - started) / 1000;
  warmAnswersPerSecond = WARMUP_REQUESTS / answeredIn;
  await pointsReached(call, before + WARMUP_REQUESTS, SETTLE_TIMEOUT_MS);
  console.log(
    `warm-up: ${WARMUP_REQUESTS} postbacks answered in ${fmt(answeredIn, 1)} s (${fmt(warmAnswersPerSecond)} a second), credited in ${fmt((performance.now() - started) / 1000, 1)} s (not measured)`,
  );
}
/** The postbacks of a load that lasts LOAD_SECONDS at `perSecond` (to the thousand), at least `fewest`; or BENCH_REQUESTS. */
const loadSize = (perSecond, fewest) => FIXED_REQUESTS ?? Math.max(fewest, Math.round((perSecond * LOAD_SECONDS) / 1000) * 1000);
const REQUESTS = loadSize(warmAnswersPerSecond, MIN_REQUESTS);
console.log(
  FIXED_REQUESTS
    ? `rounds of ${REQUESTS} postbacks (BENCH_REQUESTS)`
    : `rounds of ${REQUESTS} postbacks: about ${LOAD_SECONDS} s at the warm-up's rate (BENCH_LOAD_SECONDS), at least ${MIN_REQUESTS}`,
);

/**
 * 1. The product's tables as a vacuumed database has them. Where autovacuum is off, the rows earlier runs updated stay dead in the
 * outbox's index, and index-only scans (balances, the admin rank) visit the heap for every entry:
 * each run would measure the bloat its predecessors left. BENCH_SKIP_VACUUM=1 takes it as it is.
 */
async function vacuum() {
  if (flag('BENCH_SKIP_VACUUM')) return;
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  const [{ autovacuum }] = (await db.query('SHOW autovacuum')).rows;
  const started = performance.now();
  await db.query('VACUUM (ANALYZE)');
  // And a checkpoint: each run then starts with no page written since one, as the first run did.
  await db.query('CHECKPOINT');
  await db.end();
  console.log(
    `vacuum: VACUUM (ANALYZE) and CHECKPOINT of ${PGBENCH_DATABASE_URL} in ${fmt((performance.now() - started) / 1000, 1)} s (autovacuum ${autovacuum})`,
  );
}

/**
 * 2. What the database does on its own, on this machine, now: before the load and again after it.
 * A virtual host's speed can drift within minutes; the ratio is taken against
 * the mean of the two, so a drift during the round moves both sides alike.
 */
async function pgbench(when) {
  if (flag('BENCH_SKIP_PGBENCH')) return undefined;
  console.log(`pgbench ${when}: single-row INSERT transactions, ${CONNECTIONS} connections, ${PGBENCH_SECONDS} s, ${PGBENCH_DATABASE_URL}`);
  const run = await pgbenchInsert();
  console.log(
    `pgbench ${when}: ${fmt(run.tps)} transactions/s, latency p50 ${fmt(run.latency.p50, 1)} ms, p99 ${fmt(run.latency.p99, 1)} ms, max ${fmt(run.latency.max, 0)} ms`,
  );
  return run;
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
async function probe(until, visibleAfter) {
  // Without the live stream (a gateway that does not serve it), the probe polls from the answer on.
  const live = await liveStream(probeCall).catch((err) => {
    console.log(`probe: no live stream (${err.message}); polling GET /api/tasks from each answer`);
    return null;
  });
  let failures = 0;
  let expected = (await probeCall('GET', '/api/tasks')).length;
  let points = (await probeCall('GET', '/api/user')).points;
  try {
    while (!until.done) {
      const res = await fetch(`${TARGET_URL}${signedPath(probeUser.id)}`);
      await res.text();
      const answeredAt = performance.now();
      if (res.status !== 200) {
        failures++;
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
  return failures;
}

/** The database's WAL counters (pg_stat_wal): what the load wrote, per credit, at the end. */
async function walCounters() {
  return (
    await queryDatabase('SELECT wal_records::float8 AS records, wal_fpi::float8 AS fpi, wal_bytes::float8 AS bytes FROM pg_stat_wal')
  )[0];
}

/** One query on the product's database (PGBENCH_DATABASE_URL), over a connection of its own. */
async function queryDatabase(sql) {
  const { Client } = require(path.join(root, 'node_modules/pg'));
  const db = new Client({ connectionString: PGBENCH_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(sql)).rows;
  } finally {
    await db.end();
  }
}

/**
 * The moment the load user's balance reaches `target`: pushed on the user's live stream (the
 * gateway announces a new balance once its view holds it, so GET /api/user shows it from then on);
 * polled every 10 ms on GET /api/user where the stream is missing or ends. Answers performance.now()
 * of that moment, or null after `timeoutMs`.
 */
async function balanceReached(live, target, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  const pushed = live ? await live.next((e) => e.user.points >= target, timeoutMs) : null;
  if (pushed) return pushed.receivedAt;
  // No stream, or it closed early: polling finds the moment to within 10 ms.
  return pointsReached(call, target, Math.max(0, deadline - performance.now()), 10);
}

/** One round: vacuum, pgbench, the load with the probe, every credit visible, pgbench again. */
async function measureRound() {
  await vacuum();
  const pgbenchBeforeFrom = performance.now();
  const pgbenchBefore = await pgbench('before the load');
  const stallsPgbenchBefore = await stalls.window(pgbenchBeforeFrom, performance.now());
  const diskPgbenchBefore = await disk.window?.(pgbenchBeforeFrom, performance.now());
  const startPoints = (await call('GET', '/api/user')).points;

  const { planned, unique } = planPostbacks(signedPath, user.id, REQUESTS, DUPLICATE_SHARE);

  console.log(
    `postbacks: ${REQUESTS} requests over ${CONNECTIONS} connections to ${TARGET_URL}/webhooks/offerwalls/${PROVIDER} (signed for ${SIGNING_ORIGIN}), ~${Math.round(DUPLICATE_SHARE * 100)}% replays, user ${user.id}`,
  );
  // The load user's own live stream tells when its balance holds every credit (step 5).
  const live = await liveStream(call).catch(() => null);
  const walBefore = await walCounters();
  const cpuBefore = cpuSnapshot(PGBENCH_DATABASE_URL);
  const machineBefore = machineCpu();
  const ownCpuBefore = ownCpuMs();
  const visibleAfter = [];
  const until = { done: false };
  const probing = probe(until, visibleAfter);
  // The clock starts with the first request: writing wrk's file of paths and spawning it
  // (about 0.1 s) is the load generator's time, not the product's.
  let started = performance.now();
  const result = await load({ url: TARGET_URL, connections: CONNECTIONS, paths: planned, onStart: () => (started = performance.now()) });
  const answeredIn = (performance.now() - started) / 1000;
  until.done = true;
  const stallsLoad = await stalls.window(started, started + answeredIn * 1000);
  const diskLoad = await disk.window?.(started, started + answeredIn * 1000);

  // 5. Until the balance shows every unique transaction once; then a while longer, to see nothing more arrives.
  const reachedAt = await balanceReached(live, startPoints + unique, Math.max(0, SETTLE_TIMEOUT_MS - (performance.now() - started)));
  live?.close();
  const creditedIn = ((reachedAt ?? performance.now()) - started) / 1000;
  const ownCpu = ownCpuMs() - ownCpuBefore;
  const cpuAfter = cpuSnapshot(PGBENCH_DATABASE_URL);
  const machineAfter = machineCpu();
  const walAfter = await walCounters();
  const probeFailures = await probing;
  await sleep(2000);
  const credited = (await call('GET', '/api/user')).points - startPoints;
  const pgbenchAfterFrom = performance.now();
  const pgbenchAfter = await pgbench('after the load');
  const stallsPgbenchAfter = await stalls.window(pgbenchAfterFrom, performance.now());
  const diskPgbenchAfter = await disk.window?.(pgbenchAfterFrom, performance.now());
  const pgbenchTps = pgbenchBefore === undefined ? NaN : (pgbenchBefore.tps + pgbenchAfter.tps) / 2;
  const creditsPerSecond = credited / creditedIn;
  const creditCpu = machineCpuPerOperation(machineBefore, machineAfter, credited);
  // The mean of the runs before and after, as for pgbenchTps (both or neither: pgbench skipped, or no /proc).
  const [cpuB, cpuA] = [pgbenchBefore?.cpu, pgbenchAfter?.cpu];
  const transactionCpu = cpuB && cpuA ? { ms: (cpuB.ms + cpuA.ms) / 2, kernelShare: (cpuB.kernelShare + cpuA.kernelShare) / 2 } : null;
  return {
    planned,
    result,
    answeredIn,
    unique,
    credited,
    creditedIn,
    creditsPerSecond,
    exact: credited === unique && reachedAt !== null,
    visibleAfter,
    probeFailures,
    cpuParts: cpuPerOperation(cpuBefore, cpuAfter, Math.max(1, credited)),
    ownCpuPerCredit: ownCpu / Math.max(1, credited),
    creditCpu,
    transactionCpu,
    creditInTransactions: creditCpu && transactionCpu ? creditCpu.ms / transactionCpu.ms : NaN,
    walPer: (key) => (walAfter[key] - walBefore[key]) / Math.max(1, credited),
    pgbenchBefore,
    pgbenchAfter,
    pgbenchTps,
    stallsLoad,
    stallsPgbench: [stallsPgbenchBefore, stallsPgbenchAfter],
    diskLoad,
    diskPgbench: [diskPgbenchBefore, diskPgbenchAfter],
    ratio: creditsPerSecond / pgbenchTps,
  };
}

/** A window's stalls (lib/machine-stalls.mjs): how late an idle thread woke up, and the share of instants that waited beyond 50 ms. */
function stallLine(s, what) {
  const verdict = s.share >= 0.01 ? `≥ 1%: a p99 of ${STALL_BEYOND_MS} ms was out of reach in this round` : 'under 1%';
  return `during ${what} an idle thread woke up at most ${fmt(s.maxMs, 0)} ms late (p99 ${fmt(s.p99Ms, 1)} ms); ${fmt(s.lostMs, 0)} ms lost beyond ${STALL_BEYOND_MS} ms, ${fmt(s.share * 100, 2)}% of it (${verdict})`;
}

/** A window's disk stalls (lib/disk-stalls.mjs): how long the disk under the database answered nothing while asked. */
function diskLine(d, what) {
  if (!d) return `not measured: ${disk.missing}`;
  const verdict =
    d.share >= 0.01
      ? `≥ 1%: a p99 of ${DISK_STALL_BEYOND_MS} ms was out of reach in this round for any answer after a durable commit`
      : 'under 1%';
  return `during ${what} ${disk.device} (Postgres' data) answered nothing while asked for up to ${fmt(d.maxMs, 0)} ms${d.over ? ` (from ${fmt(d.longestAtMs / 1000, 2)} s into it)` : ''}, ${d.over} time${d.over === 1 ? '' : 's'} over ${DISK_STALL_BEYOND_MS} ms; ${fmt(d.lostMs, 0)} ms lost beyond ${DISK_STALL_BEYOND_MS} ms, ${fmt(d.share * 100, 2)}% of it (${verdict})`;
}

/** A window's writeback bursts (lib/writeback-bursts.mjs): how much dirty page cache the kernel held, and when it wrote a lump of it back at once. */
function writebackLine(w, what) {
  if (!w) return `dirty pages not measured: ${writeback.missing}`;
  return `during ${what} the kernel held up to ${fmt(w.maxMb, 0)} MB of dirty pages and ${w.noted.length ? `wrote back ${WRITEBACK_NOTED_MB} MB or more at once ${w.noted.length} time${w.noted.length === 1 ? '' : 's'}: ${w.noted.map((b) => `${fmt(b.mb, 0)} MB in ${fmt(b.lengthMs, 0)} ms at ${fmt(b.startMs / 1000, 2)} s`).join(', ')}` : `never wrote back ${WRITEBACK_NOTED_MB} MB or more at once`}`;
}

/** Whether neither the machine nor its disk put a p99 of 50 ms out of reach in a window (both probes under 1%). */
const calmWindow = (cpu, d) => cpu.share < 0.01 && !(d?.share >= 0.01);

/** How many of the open loop's requests left late for one reason, and how late. */
function lateLine(l, why) {
  return `${l.count} ${why}${l.count ? `, up to ${fmt(l.max, 1)} ms (p99 of those ${fmt(l.p99, 1)})` : ''}`;
}

/** Slow answers due this close together are one episode. */
const EPISODE_GAP_MS = 100;
/** Episodes listed one by one in step 6, the largest. */
const EPISODES_LISTED = 5;

/**
 * The open loop's answers slower than the p99 target, grouped by when they were due into episodes
 * (EPISODE_GAP_MS apart or less), each beside the disk's and the machine's stalls of 20 ms or more
 * and the kernel's writeback bursts that overlapped it (from its first request's due time to its
 * last one's answer): whether a missed p99 came from one pause of the disk or the machine, from
 * the kernel writing back a lump of dirty pages, or from a queue with none under it.
 */
function slowEpisodes(latencyByRequest, rate, diskStalls, machineStalls, writebackBursts) {
  const episodes = [];
  let slow = 0;
  for (let i = 0; i < latencyByRequest.length; i++) {
    const latency = latencyByRequest[i];
    if (!(latency > P99_TARGET_MS)) continue;
    slow++;
    const due = (i * 1000) / rate;
    const open = episodes.at(-1);
    if (open && due - open.lastDue <= EPISODE_GAP_MS) {
      open.lastDue = due;
      open.count++;
      open.worst = Math.max(open.worst, latency);
      open.until = Math.max(open.until, due + latency);
    } else episodes.push({ firstDue: due, lastDue: due, count: 1, worst: latency, until: due + latency });
  }
  const overlapping = (stalls, e) => (stalls ?? []).filter((st) => st.startMs < e.until && st.startMs + st.lengthMs > e.firstDue);
  for (const e of episodes) {
    e.disk = overlapping(diskStalls, e);
    e.machine = overlapping(machineStalls, e);
    e.writeback = overlapping(writebackBursts, e);
  }
  return { slow, episodes };
}

/** Step 6's slow answers in one line: how many, and the largest episodes in time order with the stalls under them. */
function episodesLine(total, { slow, episodes }, diskMeasured, writebackMeasured) {
  if (slow === 0) return `none answered more than ${P99_TARGET_MS} ms after it was due`;
  const stallsText = (stalls, what) =>
    stalls.length
      ? `${what} ${stalls.map((st) => `${fmt(st.lengthMs, 0)} ms at ${fmt(st.startMs / 1000, 2)} s`).join(', ')}`
      : `${what} none`;
  const writebackText = (bursts) =>
    bursts.length
      ? `the kernel wrote back ${bursts.map((b) => `${fmt(b.mb, 0)} MB at ${fmt(b.startMs / 1000, 2)} s`).join(', ')}`
      : `no writeback of ${WRITEBACK_NOTED_MB} MB or more`;
  const listed = [...episodes]
    .sort((a, b) => b.count - a.count)
    .slice(0, EPISODES_LISTED)
    .sort((a, b) => a.firstDue - b.firstDue)
    .map(
      (e) =>
        `${fmt(e.firstDue / 1000, 2)}-${fmt(e.lastDue / 1000, 2)} s: ${e.count}, worst ${fmt(e.worst, 0)} ms (${
          diskMeasured ? `${stallsText(e.disk, 'disk stalled')}; ` : ''
        }${stallsText(e.machine, 'machine stalled')}${writebackMeasured ? `; ${writebackText(e.writeback)}` : ''})`,
    );
  const others = episodes.length - listed.length;
  return `${slow} answered more than ${P99_TARGET_MS} ms after it was due (${fmt((slow / total) * 100, 2)}%), in ${episodes.length} episode${episodes.length === 1 ? '' : 's'} (by due time, s into the step; stalls of 20 ms or more${writebackMeasured ? ` and writeback bursts of ${WRITEBACK_NOTED_MB} MB or more` : ''} under each): ${listed.join(' · ')}${others > 0 ? ` · and ${others} smaller` : ''}`;
}

/** Step 6's result in one paragraph. */
function pacedLine(p) {
  const { result } = p;
  const why = process.env.BENCH_TARGET_RATE ? 'BENCH_TARGET_RATE' : `${fmt(TARGET_RATIO * 100, 0)}% of the last round's pgbench TPS`;
  return `${result.requests.total} postbacks due at ${fmt(p.rate)}/s (${why}), an open loop over ${CONNECTIONS} connections (lean-load): ${result['2xx']} 2xx, ${result.non2xx} other, ${result.errors} errors
                answer p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms from when each was due   (target p99 <= ${P99_TARGET_MS} ms: ${result.latency.p99 <= P99_TARGET_MS ? 'met' : 'MISSED'})
                sent after it was due: p50 ${result.sentLate.p50} ms, p99 ${result.sentLate.p99} ms, max ${result.sentLate.max} ms; ${lateLine(result.sentLateBecause.busy, 'found every connection busy (the product behind)')}, ${lateLine(result.sentLateBecause.timer, "had a free connection whose timer fired late (the generator's own delay)")}
                began at ${p.startedAt}
                slow answers: ${episodesLine(result.requests.total, slowEpisodes(result.latencyByRequest, p.rate, p.disk?.noted, p.machine.noted, p.writeback?.noted), Boolean(p.disk), Boolean(p.writeback))}
                credits ${p.credited} in ${fmt(p.creditedIn, 2)} s: ${fmt(p.credited / p.creditedIn)} credits/s, the last visible ${fmt(p.lagAfterLastAnswer, 0)} ms after the last answer; ${p.exact ? 'exactly once: OK' : 'exactly once: MISMATCH'}
                ${stallLine(p.machine, 'it')}
                ${diskLine(p.disk, 'it')}
                ${writebackLine(p.writeback, 'it')}`;
}

/**
 * The whole machine's CPU a credit and a pgbench transaction: the ratio is about the one over the
 * other where both loads keep the cores busy, and the kernel's share says how much of each is
 * system calls, context switches and the network stack, whose price differs most between hosts.
 */
function machineLine(r) {
  if (!r.creditCpu) return 'n/a (needs Linux /proc)';
  const credit = `a credit ${fmt(r.creditCpu.ms, 3)} ms (${fmt(r.creditCpu.kernelShare * 100, 0)}% in the kernel; the load generator and probes included)`;
  if (!r.transactionCpu) return credit;
  return `${credit}, a pgbench transaction ${fmt(r.transactionCpu.ms, 3)} ms (${fmt(r.transactionCpu.kernelShare * 100, 0)}%; pgbench included, mean of before and after): a credit costs ${fmt(r.creditInTransactions, 1)} transactions, and ${TARGET_RATIO * 100}% of pgbench TPS allows ${fmt(1 / TARGET_RATIO, 0)} where both keep the cores busy`;
}

function report(r, label) {
  const cpuLine = r.cpuParts.length
    ? `${r.cpuParts.map((c) => `${c.part} ${fmt(c.ms, 3)}`).join(', ')}; load generator (${LOAD}) ${fmt(r.ownCpuPerCredit, 3)} (ms per credit, from the first request to the last credit visible; pg:<service> = its Postgres backends)`
    : 'n/a (needs Linux /proc)';
  const { result } = r;
  console.log(`
${label}
answers         ${result.requests.total} in ${fmt(r.answeredIn, 1)} s (${result['2xx']} 2xx, ${result.non2xx} other, ${result.errors} errors, ${result.timeouts} timeouts): ${fmt(result.requests.total / r.answeredIn)} answers/s
answer latency  p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms   (target p99 <= ${P99_TARGET_MS} ms: ${result.latency.p99 <= P99_TARGET_MS ? 'met' : 'MISSED'})
machine stalls  ${stallLine(r.stallsLoad, 'the load')}; pgbench before and after: up to ${fmt(r.stallsPgbench[0].maxMs, 0)} and ${fmt(r.stallsPgbench[1].maxMs, 0)} ms late
disk stalls     ${diskLine(r.diskLoad, 'the load')}${r.diskLoad ? `; pgbench before and after: up to ${fmt(r.diskPgbench[0].maxMs, 0)} and ${fmt(r.diskPgbench[1].maxMs, 0)} ms` : ''}
credits         ${r.credited} in ${fmt(r.creditedIn, 2)} s from the first request: ${fmt(r.creditsPerSecond)} credits/s (${r.unique} unique transactions, ${result.requests.total - r.unique} replays)
answer→visible  p50 ${fmt(percentile(r.visibleAfter, 50), 1)} ms, p99 ${fmt(percentile(r.visibleAfter, 99), 1)} ms over ${r.visibleAfter.length} probes (GET /api/tasks)${r.probeFailures ? `, ${r.probeFailures} probes not answered 200` : ''}
CPU per credit  ${cpuLine}
machine CPU     ${machineLine(r)}
WAL per credit  ${fmt(r.walPer('bytes') / 1024, 1)} KB, ${fmt(r.walPer('records'), 1)} records, ${fmt(r.walPer('fpi'), 2)} full-page images (whole server, pg_stat_wal)
pgbench         ${r.pgbenchBefore ? `${fmt(r.pgbenchTps)} single-row insert transactions/s (mean of ${fmt(r.pgbenchBefore.tps)} before and ${fmt(r.pgbenchAfter.tps)} after the load); their latency p99 ${fmt(r.pgbenchBefore.latency.p99, 1)} and ${fmt(r.pgbenchAfter.latency.p99, 1)} ms (p50 ${fmt(r.pgbenchBefore.latency.p50, 1)} and ${fmt(r.pgbenchAfter.latency.p50, 1)}, max ${fmt(r.pgbenchBefore.latency.max, 0)} and ${fmt(r.pgbenchAfter.latency.max, 0)}), beside the answers' ${result.latency.p99} ms` : 'skipped (BENCH_SKIP_PGBENCH)'}
ratio           credits/s = ${fmt(r.ratio * 100, 1)}% of pgbench TPS   (target >= ${TARGET_RATIO * 100}%: ${r.ratio >= TARGET_RATIO ? 'met' : 'MISSED'})
exactly once    balance grew by ${r.credited} points for ${r.unique} unique transactions: ${r.exact ? 'OK, one credit each' : 'MISMATCH'}`);
}

// The machine's own stalls during each load and pgbench (lib/machine-stalls.mjs), and its disk's
// (lib/disk-stalls.mjs): the baselines under the p99.
const stalls = startStallProbe();
const disk = await queryDatabase('SHOW data_directory').then(
  ([row]) => startDiskStallProbe(row.data_directory),
  (err) => ({ missing: `SHOW data_directory failed (${err.message}): the probe needs a role that may read it` }),
);
const writeback = startWritebackProbe();
const rounds = [];
for (let i = 1; i <= ROUNDS; i++) {
  console.log(`\n== round ${i} of ${ROUNDS}`);
  const r = await measureRound();
  rounds.push(r);
  report(r, `round ${i} of ${ROUNDS}`);
}

const last = rounds.at(-1);

/**
 * 6. The answer latency at the throughput the ratio asks for: BENCH_LOAD_SECONDS' worth of new
 * postbacks sent at a constant TARGET_RATIO of the last round's pgbench TPS (BENCH_TARGET_RATE
 * overrides), an open loop over the same connections (lean-load's `rate`), each answer timed from
 * when it was due.
 * The rounds above drive the product as fast as it answers: a closed loop at saturation, where
 * every answer waits behind the other connections'. This says what a provider sees while the
 * product credits at the target's rate, and whether the credits keep pace (the last one visible
 * soon after the last answer).
 */
async function atTargetRate(rate) {
  const { planned, unique } = planPostbacks(signedPath, user.id, loadSize(rate, 1000), DUPLICATE_SHARE);
  const startPoints = (await call('GET', '/api/user')).points;
  const live = await liveStream(call).catch(() => null);
  let started = performance.now();
  const result = await leanLoad({
    url: TARGET_URL,
    connections: CONNECTIONS,
    paths: planned,
    rate,
    onStart: () => (started = performance.now()),
  });
  const answeredAt = performance.now();
  const machine = await stalls.window(started, answeredAt);
  const diskStalls = await disk.window?.(started, answeredAt);
  const writebackBursts = await writeback.window?.(started, answeredAt);
  const reachedAt = await balanceReached(live, startPoints + unique, SETTLE_TIMEOUT_MS);
  live?.close();
  await sleep(2000);
  const credited = (await call('GET', '/api/user')).points - startPoints;
  const creditedIn = ((reachedAt ?? performance.now()) - started) / 1000;
  return {
    rate,
    // Wall-clock time of the first request: the episodes are placed from it, and the services'
    // logs (and a `perf record -k CLOCK_REALTIME` beside the bench) are stamped in wall-clock time.
    startedAt: new Date(performance.timeOrigin + started).toISOString(),
    result,
    unique,
    credited,
    creditedIn,
    lagAfterLastAnswer: (reachedAt ?? NaN) - answeredAt,
    machine,
    disk: diskStalls,
    writeback: writebackBursts,
    exact: credited === unique && reachedAt !== null,
  };
}
const targetRate = flag('BENCH_SKIP_TARGET_RATE')
  ? null
  : Number(env('BENCH_TARGET_RATE', String(Math.round(TARGET_RATIO * (Number.isFinite(last.pgbenchTps) ? last.pgbenchTps : NaN)))));
const paced = targetRate && Number.isFinite(targetRate) && targetRate > 0 ? await atTargetRate(targetRate) : null;

// 8. The floor under the ingestion service's HTTP work, on the last round's requests.
const bare = flag('BENCH_SKIP_BARE_HTTP') ? null : await bareHttpBaseline(last.planned);
const webhooksPerRequest =
  (last.cpuParts.find((c) => c.part === 'webhooks')?.ms ?? NaN) * (Math.max(1, last.credited) / last.result.requests.total);
const median = (values) => percentile(values, 50);
const ratios = rounds.map((r) => r.ratio);
const p99s = rounds.map((r) => r.result.latency.p99);
const exact = rounds.every((r) => r.exact);
const both = rounds.filter((r) => r.ratio >= TARGET_RATIO && r.result.latency.p99 <= P99_TARGET_MS).length;
// The rounds in which the machine and its disk left a p99 of 50 ms within reach (lib/machine-stalls.mjs, lib/disk-stalls.mjs).
const calm = rounds.filter((r) => calmWindow(r.stallsLoad, r.diskLoad));
await stalls.stop();
await disk.stop?.();
await writeback.stop?.();
console.log(`
== ${ROUNDS} round${ROUNDS > 1 ? 's' : ''}
bare HTTP       ${bare ? `a bare node:http server answering the last round's ${last.result.requests.total} requests: ${fmt(bare.msPerRequest, 3)} ms of CPU a request (${fmt(bare.perSecond)} answers/s, p99 ${bare.p99} ms); the ingestion service ${fmt(webhooksPerRequest, 3)} ms a request, ${fmt(webhooksPerRequest / bare.msPerRequest, 1)}× bare` : 'skipped (BENCH_SKIP_BARE_HTTP)'}
ratio           ${ratios.map((x) => `${fmt(x * 100, 1)}%`).join(' · ')}: median ${fmt(median(ratios) * 100, 1)}% of pgbench TPS   (target >= ${TARGET_RATIO * 100}%: ${median(ratios) >= TARGET_RATIO ? 'met' : 'MISSED'})
answer p99      ${p99s.map((x) => `${x} ms`).join(' · ')}: median ${median(p99s)} ms   (target <= ${P99_TARGET_MS} ms: ${median(p99s) <= P99_TARGET_MS ? 'met' : 'MISSED'})
machine CPU     ${rounds[0].transactionCpu ? `a credit costs ${rounds.map((r) => fmt(r.creditInTransactions, 1)).join(' · ')} pgbench transactions of the whole machine's CPU: median ${fmt(median(rounds.map((r) => r.creditInTransactions)), 1)} (${fmt(1 / TARGET_RATIO, 0)} or fewer for ${TARGET_RATIO * 100}% where both keep the cores busy)` : 'n/a (needs Linux /proc and pgbench)'}
pgbench p99     ${rounds[0].pgbenchBefore ? `${rounds.map((r) => `${fmt(r.pgbenchBefore.latency.p99, 1)}/${fmt(r.pgbenchAfter.latency.p99, 1)} ms`).join(' · ')} before/after each round: the database's own single-row insert at ${CONNECTIONS} connections` : 'skipped (BENCH_SKIP_PGBENCH)'}
both targets    in ${both} of ${ROUNDS} round${ROUNDS > 1 ? 's' : ''}
machine stalls  lost beyond ${STALL_BEYOND_MS} ms during the load: ${rounds.map((r) => `${fmt(r.stallsLoad.share * 100, 2)}%`).join(' · ')}; the disk's: ${disk.device ? rounds.map((r) => `${fmt(r.diskLoad.share * 100, 2)}%`).join(' · ') : 'not measured'}; in the ${calm.length} round${calm.length === 1 ? '' : 's'} where both were under 1%, the answer p99 was ${calm.length ? calm.map((r) => `${r.result.latency.p99} ms`).join(' · ') : 'n/a'}
exactly once    ${exact ? `every round: the balance grew by exactly its unique transactions` : 'MISMATCH in a round (above)'}
at target rate  ${paced ? pacedLine(paced) : 'skipped (BENCH_SKIP_TARGET_RATE, or no pgbench figure)'}`);
process.exitCode =
  exact &&
  rounds.every((r) => r.result.non2xx === 0 && r.result.errors === 0) &&
  (!paced || (paced.exact && paced.result.non2xx === 0 && paced.result.errors === 0))
    ? 0
    : 1;
