#!/usr/bin/env node
// The scale-out drill (docs/observability.md): the whole product from its built output, first with
// one process of every backend service, then with two (scripts/start-all.mjs --replicas), each time
// under the postback benchmark (bench/postbacks.bench.mjs, run as it is) and a sign-up load at
// once. Then, from every replica's /metrics and the databases:
//   - both replicas of each service took work (RPC requests, event deliveries, postbacks);
//   - the outbox relays published each event once (what the replicas' relays counted = the rows
//     marked published), and the inboxes applied each once (duplicates skipped are counted);
//   - nothing was doubled or lost (every accepted postback is one ledger credit, every sign-up one
//     bonus, one known user at the ingestion service, one email);
// and prints the throughput with two replicas beside one, with the load average of the machine.
// Each run gets a database, queues and Redis keys of its own, removed afterwards.
//
//   npm run build && node bench/scale-out.mjs          (DRILL_REPLICAS=1,2 by default)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Client } = require('pg');
const amqplib = require('amqplib');
const Redis = require('ioredis');

const env = (name, fallback) => process.env[name] || fallback;
const DATABASE_URL = env('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/esim_rewards');
const AMQP_URL = env('AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672');
const REDIS_URL = env('REDIS_URL', 'redis://127.0.0.1:6379');
const RUNS = env('DRILL_REPLICAS', '1,2').split(',').map(Number);
const POSTBACKS = Number(env('DRILL_POSTBACKS', '4000'));
const CONNECTIONS = Number(env('DRILL_CONNECTIONS', '20'));
const SIGNUPS = Number(env('DRILL_SIGNUPS', '40'));
const SIGNUP_CONCURRENCY = Number(env('DRILL_SIGNUP_CONCURRENCY', '4'));
const PORT_OFFSET = Number(env('DRILL_PORT_OFFSET', '40000'));
const BOOT_TIMEOUT_MS = Number(env('DRILL_BOOT_TIMEOUT_MS', '240000'));
const SETTLE_TIMEOUT_MS = Number(env('DRILL_SETTLE_TIMEOUT_MS', '240000'));
const BACKEND = ['identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

// --- Prometheus text -----------------------------------------------------------------------------
function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}
const sum = (samples, name, where = {}) =>
  samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => (v instanceof RegExp ? v.test(s.labels[k] ?? '') : s.labels[k] === v))).reduce((a, s) => a + s.value, 0);
async function scrape(port) {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!res.ok) throw new Error(`/metrics on ${port}: ${res.status}`);
  return parseMetrics(await res.text());
}

// --- one run --------------------------------------------------------------------------------------
async function run(replicas) {
  const id = `drill${randomBytes(3).toString('hex')}`;
  const database = `esim_${id}`;
  const dbUrl = new URL(DATABASE_URL);
  dbUrl.pathname = `/${database}`;
  const mailDir = await fs.mkdtemp(path.join(os.tmpdir(), `${id}-mail-`));
  const logFile = path.join(os.tmpdir(), `${id}.log`);
  const gatewayPort = 3000 + PORT_OFFSET;
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const productEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_FORMAT: 'json',
    LOG_LEVEL: env('DRILL_LOG_LEVEL', 'warn'),
    DATABASE_URL: dbUrl.toString(),
    AMQP_URL,
    REDIS_URL,
    QUEUE_PREFIX: `${id}.`,
    EVENTS_EXCHANGE: `${id}.events`,
    REDIS_PREFIX: `${id}:`,
    PUBLIC_URL: gateway,
    MAIL_OUTBOX_DIR: mailDir,
    SERVE_SPA: 'false',
    // 13 processes on a small shared machine: an RPC answer may take longer than in production.
    RPC_TIMEOUT_MS: env('DRILL_RPC_TIMEOUT_MS', '20000'),
    // One client address signs everyone up here.
    RATE_LIMIT_SIGNUP_IP: '1000000/3600',
    RATE_LIMIT_VERIFY_IP: '1000000/900',
    RATE_LIMIT_LOGIN_IP: '1000000/900',
  };
  console.log(`\n=== ${replicas} replica(s) of every backend service — namespace ${id}, load average ${load()}`);
  const log = await fs.open(logFile, 'w');
  const product = spawn(process.execPath, [path.join(root, 'scripts/start-all.mjs'), '--replicas', String(replicas), '--port-offset', String(PORT_OFFSET)], {
    cwd: root,
    env: productEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let portsLine = '';
  let exited = false;
  product.on('exit', () => (exited = true));
  for (const stream of [product.stdout, product.stderr]) {
    stream.on('data', (chunk) => {
      void log.write(chunk);
      const m = /HTTP ports \(health, \/metrics\): (.*)/.exec(String(chunk));
      if (m) portsLine = m[1];
    });
  }
  try {
    // Every process ready: the gateway and each replica on its own port.
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    while (!portsLine && Date.now() < deadline && !exited) await sleep(100);
    const instances = portsLine
      .split(', ')
      .map((p) => /^([a-z]+)(?:#(\d))? (\d+)$/.exec(p))
      .filter(Boolean)
      .map(([, service, replica, port]) => ({ service, replica: Number(replica ?? 1), port: Number(port) }));
    if (instances.length === 0) throw new Error(`start-all printed no ports (log: ${logFile})`);
    for (const i of instances) {
      while (!exited) {
        if (Date.now() > deadline) throw new Error(`${i.service}#${i.replica} not ready after ${BOOT_TIMEOUT_MS} ms (log: ${logFile})`);
        const ok = await fetch(`http://127.0.0.1:${i.port}/health/ready`).then((r) => r.ok, () => false);
        if (ok) break;
        await sleep(500);
      }
    }
    if (exited) throw new Error(`the product stopped (log: ${logFile})`);
    console.log(`ready: ${instances.map((i) => `${i.service}${replicas > 1 && i.service !== 'gateway' ? `#${i.replica}` : ''}:${i.port}`).join(' ')}`);

    // The loads, together: the postback benchmark as it is, and sign-ups as the SPA does them.
    const started = performance.now();
    const bench = runBench(gateway, mailDir);
    const signups = signUpLoad(gateway, mailDir);
    const [benchOut, signed] = await Promise.all([bench, signups]);
    const loadSeconds = (performance.now() - started) / 1000;

    // Settled: nothing pending in any outbox or queue.
    const settleDeadline = Date.now() + SETTLE_TIMEOUT_MS;
    let scraped;
    for (;;) {
      scraped = await Promise.all(instances.map(async (i) => ({ ...i, samples: await scrape(i.port) })));
      const pending = scraped.reduce((a, s) => a + sum(s.samples, 'outbox_pending_events') + sum(s.samples, 'event_consumer_lag_messages'), 0);
      const emails = scraped.filter((s) => s.service === 'notifications').reduce((a, s) => a + sum(s.samples, 'email_queue_jobs', { state: /waiting|active|delayed/ }), 0);
      if (pending === 0 && emails === 0) break;
      if (Date.now() > settleDeadline) throw new Error(`not settled after ${SETTLE_TIMEOUT_MS} ms: ${pending} events pending, ${emails} emails`);
      await sleep(500);
    }
    const checks = await verify(dbUrl.toString(), scraped, signed, mailDir);
    return { replicas, id, bench: benchOut, signed, loadSeconds, scraped, checks, logFile };
  } finally {
    if (!exited) {
      product.kill('SIGTERM');
      for (let i = 0; i < 200 && !exited; i++) await sleep(100);
    }
    await log.close();
    await cleanup(id, database, mailDir);
  }
}

/** bench/postbacks.bench.mjs against this run's gateway; its summary is kept. */
function runBench(gateway, mailDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bench/postbacks.bench.mjs')], {
      cwd: root,
      env: { ...process.env, GATEWAY_URL: gateway, MAIL_OUTBOX_DIR: mailDir, BENCH_SKIP_PGBENCH: '1', BENCH_REQUESTS: String(POSTBACKS), BENCH_CONNECTIONS: String(CONNECTIONS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const answers = Number(/([\d.]+) answers\/s/.exec(out)?.[1]);
      const credits = Number(/([\d.]+) credits\/s/.exec(out)?.[1]);
      const unique = Number(/\((\d+) unique transactions/.exec(out)?.[1]);
      const p99 = Number(/p99 ([\d.]+) ms, max/.exec(out)?.[1]);
      if (!Number.isFinite(credits)) return reject(new Error(`the postback benchmark printed no credits/s (exit ${code}):\n${out}`));
      resolve({ code, answers, credits, unique, p99, exactlyOnce: /exactly once\s+.*OK/.test(out), text: out.trim() });
    });
  });
}

/** A code from the mail outbox the notifications service writes without SMTP. */
async function codeFor(mailDir, email, deadline = Date.now() + 60_000) {
  const tag = email.replace(/[^a-z0-9@._-]/gi, '_');
  while (Date.now() < deadline) {
    const files = (await fs.readdir(mailDir).catch(() => [])).filter((f) => f.endsWith(`${tag}.eml`));
    if (files.length > 0) {
      const mail = await fs.readFile(path.join(mailDir, files.sort().at(-1)), 'utf8');
      const code = /\b(\d{6})\b/.exec(mail.split(/\r?\n\r?\n/).slice(1).join('\n'));
      if (code) return code[1];
    }
    await sleep(100);
  }
  throw new Error(`no verification email for ${email}`);
}

/** SIGNUPS sign-ups (register, code from the email, verify, the dashboard's reads), SIGNUP_CONCURRENCY at a time. */
async function signUpLoad(gateway, mailDir) {
  const users = [];
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const post = async (route, body, cookie) => {
    const res = await fetch(`${gateway}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: gateway, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${route}: ${res.status} ${text}`);
    return { res, body: text ? JSON.parse(text) : undefined };
  };
  const signUpOne = async () => {
    const t0 = performance.now();
    const email = `drill-${randomBytes(5).toString('hex')}@example.test`;
    const password = randomBytes(12).toString('hex');
    await post('/api/register', { name: 'Drill', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'pt' });
    const { res, body } = await post('/api/verify-email', { email, code: await codeFor(mailDir, email), password, name: 'Drill' });
    users.push(body.user.id);
    // Then the dashboard's first reads, which reach esim and payments too.
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    for (const route of ['/api/user', '/api/esim-lines', '/api/esim-purchases']) {
      const read = await fetch(`${gateway}${route}`, { headers: { cookie } });
      await read.text();
      if (!read.ok) throw new Error(`GET ${route}: ${read.status}`);
    }
    latencies.push(performance.now() - t0);
  };
  // A failure is reported (the checks then fail), not thrown: the drill still settles, counts and cleans up.
  const failures = [];
  const worker = async () => {
    while (next < SIGNUPS) {
      next++;
      await signUpOne().catch((err) => failures.push(err.message));
    }
  };
  await Promise.all(Array.from({ length: SIGNUP_CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { users, failures, perSecond: users.length / seconds, p50: latencies[Math.floor(latencies.length / 2)] };
}

/** What the databases and the replicas' counters say about exactly-once. */
async function verify(url, scraped, signed, mailDir) {
  const db = new Client({ connectionString: url });
  await db.connect();
  const one = async (sql) => Number((await db.query(sql)).rows[0].n);
  try {
    const services = BACKEND;
    const published = {};
    for (const s of services) {
      const rows = await one(`SELECT count(*) AS n FROM ${s}.outbox_events WHERE published_at IS NOT NULL`);
      const counted = scraped.filter((x) => x.service === s).reduce((a, x) => a + sum(x.samples, 'outbox_published_events_total'), 0);
      published[s] = { rows, counted };
    }
    const consumers = {};
    for (const s of [...services, 'gateway']) {
      const of = scraped.filter((x) => x.service === s);
      consumers[s] = {
        applied: of.reduce((a, x) => a + sum(x.samples, 'event_consumer_deliveries_total', { outcome: 'applied' }), 0),
        duplicates: of.reduce((a, x) => a + sum(x.samples, 'event_consumer_deliveries_total', { outcome: 'duplicate' }), 0),
        failed: of.reduce((a, x) => a + sum(x.samples, 'event_consumer_deliveries_total', { outcome: 'failed' }), 0),
        inbox: s === 'gateway' ? undefined : await one(`SELECT count(*) AS n FROM ${s}.inbox_events`),
      };
    }
    const acceptedCredits = await one(`SELECT count(*) AS n FROM webhooks.webhook_transactions WHERE status = 'accepted' AND action = 'credit'`);
    const ledgerCredits = await one(`SELECT count(*) AS n FROM rewards.ledger_transfers WHERE kind = 'offerwall_credit'`);
    const users = await one('SELECT count(*) AS n FROM identity.users');
    const bonuses = await one(`SELECT count(*) AS n FROM rewards.ledger_transfers WHERE kind = 'signup_bonus'`);
    const known = await one('SELECT count(*) AS n FROM webhooks.registered_users');
    const emails = (await fs.readdir(mailDir)).filter((f) => f.endsWith('.eml')).length;
    const deadLetters = scraped.reduce((a, x) => a + sum(x.samples, 'event_consumer_dead_letter_messages'), 0);
    return { published, consumers, acceptedCredits, ledgerCredits, users, bonuses, known, emails, signups: signed.users.length, deadLetters };
  } finally {
    await db.end();
  }
}

async function cleanup(id, database, mailDir) {
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((e) => console.warn(`could not drop ${database}: ${e.message}`));
  await admin.end();
  const conn = await amqplib.connect(AMQP_URL);
  const ch = await conn.createChannel();
  for (const s of [...BACKEND, 'gateway']) for (const q of [`${id}.${s}.rpc`, `${id}.${s}.events`, `${id}.${s}.events.dlq`]) await ch.deleteQueue(q);
  await ch.deleteExchange(`${id}.events`);
  await conn.close();
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${id}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = nextCursor;
  } while (cursor !== '0');
  await redis.quit();
  await fs.rm(mailDir, { recursive: true, force: true });
}

// --- the report -----------------------------------------------------------------------------------
function report(r) {
  console.log(r.bench.text.split('\n').filter((l) => /^(answers|answer|credits|exactly)/.test(l)).map((l) => `  bench: ${l}`).join('\n'));
  console.log(`  sign-ups: ${r.signed.users.length} in the same window, ${fmt(r.signed.perSecond, 2)}/s (p50 ${fmt(r.signed.p50)} ms each, register → email → verify)`);
  console.log('  work per replica (RPC requests answered · event deliveries applied · postbacks recorded · events published):');
  for (const s of BACKEND) {
    const cells = r.scraped
      .filter((x) => x.service === s)
      .map((x) => `#${x.replica}: ${sum(x.samples, 'rpc_server_duration_seconds_count')} · ${sum(x.samples, 'event_consumer_deliveries_total', { outcome: 'applied' })} · ${sum(x.samples, 'postback_outcomes_total')} · ${sum(x.samples, 'outbox_published_events_total')}`);
    console.log(`    ${s.padEnd(14)} ${cells.join('   ')}`);
  }
  const c = r.checks;
  const problems = [];
  for (const [s, p] of Object.entries(c.published)) if (p.rows !== p.counted) problems.push(`${s}: relays counted ${p.counted} publishes for ${p.rows} published rows`);
  for (const [s, k] of Object.entries(c.consumers)) {
    if (k.inbox !== undefined && k.inbox !== k.applied) problems.push(`${s}: ${k.applied} deliveries applied but ${k.inbox} inbox rows`);
    if (k.failed > 0) problems.push(`${s}: ${k.failed} deliveries failed`);
  }
  if (c.acceptedCredits !== c.ledgerCredits) problems.push(`${c.acceptedCredits} accepted postback credits but ${c.ledgerCredits} ledger credits`);
  const expectedUsers = c.signups + 2; // the benchmark signs up two users of its own
  if (c.users !== expectedUsers || c.bonuses !== expectedUsers || c.known !== expectedUsers) problems.push(`${expectedUsers} sign-ups: ${c.users} users, ${c.bonuses} bonuses, ${c.known} known to the ingestion service`);
  if (c.emails !== expectedUsers) problems.push(`${expectedUsers} sign-ups but ${c.emails} emails`);
  if (c.deadLetters > 0) problems.push(`${c.deadLetters} dead letters`);
  for (const f of r.signed.failures) problems.push(`a sign-up failed: ${f}`);
  if (!r.bench.exactlyOnce) problems.push('the benchmark\'s exactly-once balance check failed');
  if (r.replicas > 1) {
    for (const s of BACKEND) {
      const idle = r.scraped.filter((x) => x.service === s && sum(x.samples, 'rpc_server_duration_seconds_count') + sum(x.samples, 'event_consumer_deliveries_total') + sum(x.samples, 'postback_outcomes_total') === 0);
      for (const x of idle) problems.push(`${s}#${x.replica} took no work`);
    }
  }
  const totalPublished = Object.values(c.published).reduce((a, p) => a + p.rows, 0);
  const totalDuplicates = Object.values(c.consumers).reduce((a, k) => a + k.duplicates, 0);
  console.log(
    `  exactly once: ${totalPublished} events published, each once (relay counters = published rows in every schema); ${c.acceptedCredits} accepted credits = ${c.ledgerCredits} ledger credits; ` +
      `${c.users} users = ${c.bonuses} bonuses = ${c.known} known to webhooks = ${c.emails} emails; inbox duplicates skipped: ${totalDuplicates}; dead letters: ${c.deadLetters}`,
  );
  console.log(problems.length ? `  PROBLEMS:\n    - ${problems.join('\n    - ')}` : '  checks: all passed');
  return problems.length === 0;
}

const results = [];
let ok = true;
for (const replicas of RUNS) {
  const r = await run(replicas);
  ok = report(r) && ok;
  results.push({ ...r, loadAfter: load() });
}
console.log(`\n=== throughput (${os.cpus().length} CPUs; load average now ${load()})`);
console.log('replicas | postback answers/s | answer p99 ms | credits/s | sign-ups/s');
for (const r of results) console.log(`${String(r.replicas).padStart(8)} | ${fmt(r.bench.answers).padStart(18)} | ${fmt(r.bench.p99).padStart(13)} | ${fmt(r.bench.credits).padStart(9)} | ${fmt(r.signed.perSecond, 2).padStart(10)}`);
process.exitCode = ok ? 0 : 1;
