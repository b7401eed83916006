#!/usr/bin/env node
// The admin user table and its CSV export at 100,000 users (docs/admin.md). Self-contained: it runs
// identity, rewards, esim and the gateway from their TypeScript sources as separate processes in a
// namespace of their own (schemas, queues, exchange and Redis prefix named after one random id, so
// it never meets a running product or a test), seeds the users straight into their schemas, signs
// in an admin, and prints how fast a page answers and the gateway's memory during a full export.
// Everything it created is removed at the end. See bench/README.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Client } = require(path.join(root, 'node_modules/pg'));
const amqplib = require(path.join(root, 'node_modules/amqplib'));
const Redis = require(path.join(root, 'node_modules/ioredis'));
const argon2 = require(path.join(root, 'node_modules/argon2'));

const env = (name, fallback) => process.env[name] || fallback;
const DATABASE_URL = env('BENCH_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/esim_admin_bench');
const AMQP_URL = env('BENCH_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672');
const REDIS_URL = env('BENCH_REDIS_URL', 'redis://127.0.0.1:6379');
const USERS = Number(env('BENCH_USERS', '100000'));
const SAMPLES = Number(env('BENCH_SAMPLES', '30'));
const KEEP_LOGS = env('BENCH_LOGS', '') === '1';
const SERVICES = ['identity', 'rewards', 'esim'];
const ID = `bench${randomBytes(4).toString('hex')}`;
const ADMIN = { email: `${ID}-admin@example.test`, password: randomBytes(12).toString('hex') };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const schema = (service) => `${service}_${ID}`;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resident set now and at its highest (VmRSS / VmHWM), in MB, of a child process. */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

const children = [];

/** One service from its sources, in the bench's namespace; resolves once /health/ready answers 200. */
async function startProcess(service, extra = {}) {
  const healthPort = await freePort();
  const childEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: env('BENCH_LOG_LEVEL', 'warn'),
    LOG_FORMAT: 'json',
    DATABASE_URL,
    DB_SCHEMA: schema(service),
    AMQP_URL,
    REDIS_URL,
    EVENTS_EXCHANGE: `${ID}.events`,
    QUEUE_PREFIX: `${ID}.`,
    REDIS_PREFIX: `${ID}:`,
    HEALTH_PORT: String(healthPort),
    // The gateway and webhooks answer /health on their operator port only.
    OPS_PORT: String(healthPort),
    RPC_TIMEOUT_MS: '30000',
    ADMIN_POINTS_REFRESH_MS: '1000',
    ...extra,
  };
  const child = spawn(process.execPath, ['-r', path.join(root, 'libs/testing/ts-register.cjs'), path.join(root, `services/${service}/src/main.ts`)], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (KEEP_LOGS ? process.stderr.write(chunk) : log.push(chunk)) && log.length > 200 && log.shift());
  children.push({ service, child });
  const port = healthPort;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${service} exited (${child.exitCode}):\n${Buffer.concat(log).toString().slice(-4000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false);
    if (ok) return child;
    if (Date.now() > deadline) throw new Error(`${service} not ready after 180 s:\n${Buffer.concat(log).toString().slice(-4000)}`);
    await sleep(500);
  }
}

/** A statement on the bench database; `searchPath` for the ledger's triggers, which name their tables unqualified. */
async function sql(query, params = [], searchPath) {
  const db = new Client({ connectionString: DATABASE_URL, ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}) });
  await db.connect();
  try {
    return (await db.query(query, params)).rows;
  } finally {
    await db.end();
  }
}

/**
 * 100,000 accounts as the services would hold them: identity's users (names and emails to search),
 * rewards' ledger accounts with the sign-up bonus and, for two users in five, offer-wall credits
 * (through the ledger's own triggers, so balances are real sums), and a delivered gift for one in ten.
 */
async function seed() {
  const started = performance.now();
  const hash = await argon2.hash(ADMIN.password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await sql(
    `INSERT INTO "${schema('identity')}".users (email, password_hash, name, email_verified, locale, settings, is_admin)
     VALUES ($1, $2, 'Bench Admin', true, 'en', '{"emailNotifications":true,"pushNotifications":true,"dataAlerts":true,"marketingEmails":false,"twoFactorAuth":false,"privateProfile":false}', true)`,
    [ADMIN.email, hash],
  );
  await sql(
    `INSERT INTO "${schema('identity')}".users (email, password_hash, name, email_verified, locale, settings, created_at)
     SELECT 'user' || g || '-' || substr(md5(g::text), 1, 6) || '@example.test', 'seeded', 'Seed ' || initcap(substr(md5(g::text), 1, 8)) || ' ' || g,
            true, 'en', '{}'::jsonb, now() - interval '100 days' + g * interval '1 minute'
       FROM generate_series(1, $1::int) AS g`,
    [USERS],
  );
  const rw = schema('rewards');
  await sql(`INSERT INTO "${rw}".ledger_accounts (user_id) SELECT id FROM "${schema('identity')}".users`, [], rw);
  await sql(
    `INSERT INTO "${rw}".ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
     SELECT 'signup_bonus', (SELECT id FROM "${rw}".ledger_accounts WHERE code = 'signup_bonus'), a.id, 100, 'bench:' || a.user_id
       FROM "${rw}".ledger_accounts a WHERE a.user_id IS NOT NULL`,
    [],
    rw,
  );
  await sql(
    `INSERT INTO "${rw}".ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
     SELECT 'offerwall_credit', (SELECT id FROM "${rw}".ledger_accounts WHERE code = 'offerwalls'), a.id, 1 + (abs(hashtext(a.user_id::text)) % 6000), 'bench:' || a.user_id
       FROM "${rw}".ledger_accounts a WHERE a.user_id IS NOT NULL AND abs(hashtext(a.user_id::text)) % 5 < 2`,
    [],
    rw,
  );
  await sql(
    `INSERT INTO "${schema('esim')}".data_gifts (user_id, amount_gb, plan_tier, iccid, status, source, delivered_at)
     SELECT id, 3, '3GB', '8900000000000000001', 'delivered', 'points', now() FROM "${schema('identity')}".users WHERE abs(hashtext(id::text)) % 10 = 0`,
  );
  for (const s of ['identity', 'rewards', 'esim']) await sql(`ANALYZE "${schema(s)}".${s === 'identity' ? 'users' : s === 'rewards' ? 'ledger_transfers' : 'data_gifts'}`);
  return (performance.now() - started) / 1000;
}

let cookie = '';
let gatewayUrl = '';
async function call(method, route, body) {
  const res = await fetch(`${gatewayUrl}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?sid=/.test(c));
  if (set) cookie = set.split(';')[0];
  return res;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** Latency of one kind of page: `next()` gives each request's query (cursors follow the pages). */
async function measure(label, next) {
  const times = [];
  measure.cursor = null;
  let rows = 0;
  let total = '';
  for (let i = 0; i < SAMPLES + 3; i++) {
    const query = next(i);
    const t0 = performance.now();
    const res = await call('GET', `/api/admin/users?${query}`);
    const page = await res.json();
    const ms = performance.now() - t0;
    if (!res.ok) throw new Error(`${label}: ${res.status} ${JSON.stringify(page)}`);
    if (i >= 3) times.push(ms); // the first requests warm caches and connections
    rows = page.length;
    total = res.headers.get('x-total-count');
    measure.cursor = res.headers.get('x-next-cursor');
  }
  console.log(
    `  ${label.padEnd(46)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms   max ${Math.max(...times).toFixed(1).padStart(6)} ms   (${rows} rows of ${total})`,
  );
  return percentile(times, 50);
}

/** Follows cursors: page 1, 2, 3… of the same query, starting over when the pages run out. */
const walking = (base) => () => (measure.cursor ? `${base}&cursor=${measure.cursor}` : base);

async function sqlTime(label, query) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const plan = await sql(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`);
    times.push(plan[0]['QUERY PLAN'][0]['Execution Time']);
  }
  console.log(`  ${label.padEnd(46)} ${percentile(times, 50).toFixed(2).padStart(8)} ms`);
}

async function exportUsers(gatewayPid) {
  const before = memoryOf(gatewayPid);
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(gatewayPid).rss)), 20);
  const t0 = performance.now();
  const res = await call('GET', '/api/admin/users/export');
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  let firstByteMs = NaN;
  const progress = [];
  // Read as a stream: nothing is buffered on this side either.
  for await (const chunk of res.body) {
    if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - t0;
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
    // The gateway's RSS each time another tenth of the users has arrived: flat means constant memory.
    if (lines >= ((progress.length + 1) * USERS) / 10) progress.push(`${(progress.length + 1) * 10}%: ${memoryOf(gatewayPid).rss.toFixed(0)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = memoryOf(gatewayPid);
  return { rows: lines - 1, bytes, seconds, firstByteMs, before: before.rss, peak: Math.max(peak, after.rss), hwm: after.hwm, progress };
}

async function cleanup() {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null)));
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect().catch(() => undefined);
  try {
    const rows = (await db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`%\\_${ID}`])).rows;
    for (const { nspname } of rows) await db.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
  } finally {
    await db.end().catch(() => undefined);
  }
  const conn = await amqplib.connect(AMQP_URL);
  try {
    const ch = await conn.createChannel();
    for (const s of [...SERVICES, 'gateway', 'notifications', 'payments', 'webhooks'])
      for (const q of [`${ID}.${s}.rpc`, `${ID}.${s}.events`, `${ID}.${s}.events.dlq`]) await ch.deleteQueue(q);
    await ch.deleteExchange(`${ID}.events`);
    await ch.close();
  } finally {
    await conn.close();
  }
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${ID}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function main() {
  console.log(`admin user table benchmark: ${USERS.toLocaleString('en')} users, namespace ${ID}`);
  const t0 = performance.now();
  await Promise.all(SERVICES.map((s) => startProcess(s)));
  const port = await freePort();
  gatewayUrl = `http://127.0.0.1:${port}`;
  const gateway = await startProcess('gateway', { PORT: String(port), PUBLIC_URL: gatewayUrl, SERVE_SPA: 'false' });
  console.log(`services up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  console.log(`seeded in ${(await seed()).toFixed(1)} s`);
  const login = await call('POST', '/api/login', { username: ADMIN.email, password: ADMIN.password });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  // The order by points follows the ledger a few seconds behind (ADMIN_POINTS_REFRESH_MS).
  const rankDeadline = Date.now() + 300_000;
  while (Number((await sql(`SELECT count(*) AS n FROM "${schema('rewards')}".admin_points_rank`))[0].n) < USERS) {
    if (Date.now() > rankDeadline) throw new Error('the points order did not catch up in 5 minutes');
    await sleep(1000);
  }

  console.log(`\nGET /api/admin/users, 25 rows a page, ${SAMPLES} requests each (after 3 warm-up):`);
  await measure('newest first, page 1', () => 'sort=createdAt&order=desc&limit=25');
  await measure('newest first, following cursors', walking('sort=createdAt&order=desc&limit=25'));
  await measure('name A-Z, following cursors', walking('sort=name&order=asc&limit=25'));
  await measure('email A-Z, page 1', () => 'sort=email&order=asc&limit=25');
  await measure('most points, page 1', () => 'sort=points&order=desc&limit=25');
  await measure('most points, following cursors', walking('sort=points&order=desc&limit=25'));
  await measure('search one user (q=user4242-)', () => 'q=user4242-&limit=25');
  await measure('search a common term (q=seed a), newest', () => 'q=seed%20a&sort=createdAt&order=desc&limit=25');
  await measure('search a common term, by points', () => 'q=seed%20a&sort=points&order=desc&limit=25');
  await measure('legacy offset=90000', () => 'sort=createdAt&order=asc&limit=25&offset=90000');

  console.log(`\nThe same pages' own SQL, timed in Postgres (EXPLAIN ANALYZE, median of 5): the rest of a page's time is the RPC hops (guard, identity, rewards, esim):`);
  const users = `"${schema('identity')}".users`;
  const rank = `"${schema('rewards')}".admin_points_rank`;
  await sqlTime('identity: newest first, keyset page', `SELECT id FROM ${users} WHERE deleted_at IS NULL AND (created_at, id) < (now(), '00000000-0000-0000-0000-000000000000') ORDER BY created_at DESC, id DESC LIMIT 26`);
  await sqlTime('identity: count of live users', `SELECT count(*) FROM ${users} WHERE deleted_at IS NULL`);
  await sqlTime('identity: search (trigram), newest first', `SELECT id FROM ${users} WHERE deleted_at IS NULL AND (email || ' ' || lower(name)) LIKE '%user4242-%' ORDER BY created_at DESC, id DESC LIMIT 26`);
  await sqlTime('identity: name A-Z, keyset page', `SELECT id FROM ${users} WHERE deleted_at IS NULL AND (lower(name), id) > ('seed m', '00000000-0000-0000-0000-000000000000') ORDER BY lower(name), id LIMIT 26`);
  await sqlTime('rewards: most points, keyset page', `SELECT r.user_id FROM ${rank} r WHERE (r.points, r.user_id) < (3000, 'ffffffff-ffff-ffff-ffff-ffffffffffff') ORDER BY r.points DESC, r.user_id DESC LIMIT 26`);

  console.log(`\nGET /api/admin/users/export (streamed CSV):`);
  const e = await exportUsers(gateway.pid);
  console.log(`  rows ${e.rows.toLocaleString('en')}, ${(e.bytes / 1024 / 1024).toFixed(1)} MB in ${e.seconds.toFixed(1)} s (${Math.round(e.rows / e.seconds).toLocaleString('en')} rows/s), first byte after ${e.firstByteMs.toFixed(0)} ms`);
  console.log(`  gateway RSS: ${e.before.toFixed(0)} MB before, peak ${e.peak.toFixed(0)} MB during (+${(e.peak - e.before).toFixed(0)} MB), process high-water mark ${e.hwm.toFixed(0)} MB`);
  console.log(`  gateway RSS (MB) as the rows arrive: ${e.progress.join(', ')}`);
  // Memory that only grows would grow again: a second export shows whether the first one left anything behind.
  const again = await exportUsers(gateway.pid);
  console.log(`  a second export: ${again.seconds.toFixed(1)} s, gateway RSS ${again.before.toFixed(0)} MB before, peak ${again.peak.toFixed(0)} MB`);
  console.log(`  gateway RSS (MB) as the rows arrive: ${again.progress.join(', ')}`);
  for (const { service, child } of children.filter((c) => c.service !== 'gateway')) {
    const m = memoryOf(child.pid);
    console.log(`  ${service} RSS ${m.rss.toFixed(0)} MB (high-water ${m.hwm.toFixed(0)} MB)`);
  }
  if (e.rows !== USERS + 1) throw new Error(`the export has ${e.rows} rows, expected ${USERS + 1} (the users and the admin)`);
}

main()
  .then(() => cleanup().then(() => process.exit(0)))
  .catch(async (err) => {
    console.error(err);
    await cleanup().catch((e) => console.error(`cleanup: ${e.message}`));
    process.exit(1);
  });
