import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { BACKEND_SERVICES, DEFAULT_HTTP_PORTS, SANDBOXES_DEFAULT_PORT, SERVICES as PRODUCT_SERVICES } from '@esim/contracts';
import { TEST_DATABASE_URL, TestNamespace, waitFor } from '@esim/testing';
import { isFree, SPARE_PORTS } from '../support/ports';

const root = path.resolve(__dirname, '../..');
/** What npm start runs with no provider credentials: every service, and the provider emulators. */
const SERVICES = [...PRODUCT_SERVICES, 'sandboxes'] as const;
const PORTS: Record<(typeof SERVICES)[number], number> = { ...DEFAULT_HTTP_PORTS, sandboxes: SANDBOXES_DEFAULT_PORT };
/** Where each process answers /health: the gateway and the webhooks service on their internal operator port (OPS_PORT defaults). */
const HEALTH_PORTS: Record<(typeof SERVICES)[number], number> = { ...PORTS, gateway: 3100, webhooks: 3108 };

/**
 * A PORT_OFFSET whose ports (every service's and the emulators') are free here, so the run cannot meet a product already running,
 * all among the spare ports (test/support/ports.ts): a port in the ephemeral range that was free
 * when checked could be taken before the service listens (EADDRINUSE, seen in a CI run).
 */
async function freeOffset(): Promise<number> {
  const ports = [...Object.values(PORTS), HEALTH_PORTS.gateway, HEALTH_PORTS.webhooks];
  const lowest = SPARE_PORTS.from - Math.min(...ports);
  const choices = Math.floor((SPARE_PORTS.to - Math.max(...ports) - lowest) / 100) + 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = lowest + 100 * Math.floor(Math.random() * choices);
    if ((await Promise.all(ports.map((p) => isFree(p + offset)))).every(Boolean)) return offset;
  }
  throw new Error('no free PORT_OFFSET found');
}

/** Running: it exists and is not a zombie (a service whose launcher died is reaped by whoever adopts it). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** `ps` of the processes whose parent is `pid`: their pid and session id. */
function childrenOf(pid: number): Array<{ pid: number; sid: number; command: string }> {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,sid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there is none
  }
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [p, s, ...rest] = line.trim().split(/\s+/);
      return { pid: Number(p), sid: Number(s), command: rest.join(' ') };
    });
}

interface Product {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  services: Array<{ pid: number; sid: number; command: string }>;
}

/**
 * `npm start`'s launcher (scripts/start-all.mjs, from the build `npm test` makes first), the whole
 * product in its own database, exchange, queues and Redis keys, on free ports.
 */
async function startProduct(ns: TestNamespace, database: string): Promise<Product> {
  const offset = await freeOffset();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  const env = ns.env('start-all', { DATABASE_URL: url.toString(), PORT_OFFSET: String(offset), LOG_LEVEL: 'warn' });
  // Each process gets its ports from start-all; the namespace's "any free port" would override them.
  delete env.PORT;
  delete env.HEALTH_PORT;
  delete env.OPS_PORT;
  delete env.DB_SCHEMA;
  const childEnv = { ...process.env, ...env } as NodeJS.ProcessEnv;
  delete childEnv.CREDITING_NICE; // its default is what is checked
  const child = spawn(process.execPath, [path.join(root, 'scripts/start-all.mjs')], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  // Each process answers /health/ready on its default health port moved by PORT_OFFSET.
  const ready = async (port: number) => (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.status === 200;
  // A deadline for a start beside other suites on two cores, not a speed figure.
  await waitFor(async () => gone || (await Promise.all(SERVICES.map((s) => ready(HEALTH_PORTS[s] + offset)))).every(Boolean), {
    timeoutMs: 120_000,
    intervalMs: 250,
    what: 'every service to be ready',
  });
  if (gone) throw new Error(`start-all exited while starting:\n${output.slice(-4000)}`);
  return { child, exited, output: () => output, services: childrenOf(child.pid!) };
}

/**
 * scripts/start-all.mjs runs each service in a session of its own (so that Linux schedules it as a
 * group of its own, as a container's cgroup does).
 * A terminal's Ctrl-C or hang-up then reaches start-all alone, and start-all must stop them: a
 * closed terminal that left seven services running would hold the ports of the next `npm start`.
 * Killed outright, start-all runs no code: each service then stops itself when its IPC channel to
 * start-all closes.
 */
describe('npm start (scripts/start-all.mjs)', () => {
  const ns = new TestNamespace();
  const database = `esim_${ns.id}`;
  const started: Product[] = [];

  afterAll(async () => {
    for (const p of started) {
      for (const s of p.services) if (alive(s.pid)) process.kill(s.pid, 'SIGKILL');
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }
    const maintenance = new URL(TEST_DATABASE_URL);
    maintenance.pathname = '/postgres'; // the test database itself may not exist yet
    const pg = new Client({ connectionString: maintenance.toString() });
    await pg.connect();
    await pg.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await pg.end();
    await ns.cleanup();
  });

  it('runs every service in a session of its own, rewards at a lower priority, and a hang-up sent to it alone stops them all', async () => {
    const product = await startProduct(ns, database);
    started.push(product);
    const serviceOf = (s: { command: string }) => path.basename(path.dirname(path.dirname(s.command.split(' ').pop()!)));
    expect(product.services.map(serviceOf).sort()).toEqual([...SERVICES].sort());
    for (const s of product.services) expect(s.sid).toBe(s.pid); // a session leader: its own session
    // Each session is a scheduling group; the crediting's yields the cores to the answers (CREDITING_NICE, 10 by default).
    const niceOf = (pid: number) => readFileSync(`/proc/${pid}/autogroup`, 'utf8').match(/nice (-?\d+)/)![1];
    expect(Object.fromEntries(product.services.map((s) => [serviceOf(s), niceOf(s.pid)]))).toEqual(
      Object.fromEntries(SERVICES.map((name) => [name, name === 'rewards' ? '10' : '0'])),
    );

    // Each service connects as its own database role, the owner of its own schema only (docs/operations.md, "Database roles").
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${database}`;
    const pg = new Client({ connectionString: url.toString() });
    await pg.connect();
    try {
      const backends = [...BACKEND_SERVICES];
      const logins = await pg.query<{ app: string; role: string }>(`SELECT DISTINCT application_name AS app, usename AS role FROM pg_stat_activity WHERE datname = $1 AND application_name = ANY($2)`, [database, backends]);
      expect(Object.fromEntries(logins.rows.map((r) => [r.app, r.role]))).toEqual(Object.fromEntries(backends.map((s) => [s, `esim_${s}`])));
      const owners = await pg.query<{ schema: string; owner: string }>(`SELECT nspname AS schema, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = ANY($1)`, [backends]);
      expect(Object.fromEntries(owners.rows.map((r) => [r.schema, r.owner]))).toEqual(Object.fromEntries(backends.map((s) => [s, `esim_${s}`])));
    } finally {
      await pg.end();
    }

    process.kill(product.child.pid!, 'SIGHUP'); // what a closed terminal sends, to start-all only
    expect(await product.exited).toEqual({ code: 0, signal: null });
    expect(product.services.filter((s) => alive(s.pid)).map((s) => s.command)).toEqual([]);
  }, 180_000);

  it('stops every other service, and exits with an error, when one service dies', async () => {
    const product = await startProduct(ns, database);
    started.push(product);
    const esim = product.services.find((s) => s.command.includes('/services/esim/'))!;
    process.kill(esim.pid, 'SIGKILL'); // a crash: no shutdown of its own

    const exit = await product.exited;
    expect(exit.code).not.toBe(0);
    expect(product.services.filter((s) => alive(s.pid)).map((s) => s.command)).toEqual([]);
    expect(product.output()).toMatch(/esim\s*\| exited \(SIGKILL\); stopping everything/);
  }, 180_000);

  it('leaves no service running when it is itself killed outright', async () => {
    const product = await startProduct(ns, database);
    started.push(product);
    process.kill(product.child.pid!, 'SIGKILL'); // no handler runs: the services must notice alone
    expect(await product.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Each stops as on SIGTERM (closing its connections); the deadline is for two busy cores.
    await waitFor(() => product.services.every((s) => !alive(s.pid)), { timeoutMs: 60_000, intervalMs: 250, what: 'every service to stop' });
  }, 180_000);
});
