#!/usr/bin/env node
// Runs every backend service and the gateway from their built output, as one command.
// Output lines are prefixed with the service name. If any service exits, all are stopped: a
// service no longer exits on a broker or database drop (it reconnects and says so in its log),
// so an exit means a real failure (bad configuration, a bug), and a half-running product that
// hides it would be worse for the person running `npm start` than a clear stop.
//
// Scale-out on one machine (docs/observability.md, "The scale-out drill"):
//   node scripts/start-all.mjs --replicas 2      (or REPLICAS=2)
// runs that many processes of every backend service (the gateway stays one): the replicas of a
// service share its queues, so RabbitMQ spreads events and RPC requests over them, and their
// outbox relays share the outbox (FOR UPDATE SKIP LOCKED). Each replica has its own HTTP port for
// /health and /metrics: the service's port, then +100, +200, … (the gateway and the webhooks
// service answer them on their internal OPS_PORT only: 3100 and 3108). The webhooks service's port
// carries provider callbacks from the gateway, so with replicas a round-robin TCP balancer takes
// that port (as a Kubernetes Service would) and the replicas listen on +100, +200, ….
// PORT_OFFSET=N moves every port (the gateway's included) by N, to run beside another copy.
// The provider emulators (sandboxes/, port 3107) run too when a provider has no credentials and
// SANDBOXES_URL names no copy of them running elsewhere; the services then reach them there.
// Each backend service connects to Postgres as a role of its own, which this script makes first with
// DATABASE_URL's login (scripts/lib/db-roles.mjs; docs/operations.md, "Database roles"); DB_ROLES=off
// runs every service with DATABASE_URL's login instead.
// CREDITING_NICE=N (default 10, 0 = an equal share) is rewards' scheduling priority against the
// other services when the cores are short (below, "The answers first").
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contracts = path.join(root, 'libs/contracts/dist/ports/services.js');
if (!existsSync(contracts)) {
  console.error(`${contracts} is missing: run "npm run build" first (or "npm start", which builds).`);
  process.exit(1);
}
// Loaded once the build is known to be there: it reads the list of services from libs/contracts.
const { SERVICES: services, entryOf, portOf, providersWithoutCredentials, sandboxesProcess, serviceEnv } = await import('./lib/product-env.mjs');

function option(name, envName) {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i > 0 ? process.argv[i + 1] : process.env[envName];
  return raw === undefined || raw === '' ? undefined : raw;
}
const replicas = Number(option('replicas', 'REPLICAS') ?? 1);
// DB_ROLES=off: every service connects with DATABASE_URL's own login, as before there were roles.
const dbRoles = option('db-roles', 'DB_ROLES') !== 'off';
const offset = Number(option('port-offset', 'PORT_OFFSET') ?? 0);
const creditingNice = Number(option('crediting-nice', 'CREDITING_NICE') ?? 10);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 9) {
  console.error('--replicas (REPLICAS) must be a whole number from 1 to 9');
  process.exit(1);
}
if (!Number.isInteger(offset) || offset < 0) {
  console.error('--port-offset (PORT_OFFSET) must be a whole number ≥ 0');
  process.exit(1);
}
if (!Number.isInteger(creditingNice) || creditingNice < 0 || creditingNice > 19) {
  console.error('--crediting-nice (CREDITING_NICE) must be a whole number from 0 to 19');
  process.exit(1);
}

/**
 * The answers first. rewards credits what the ingestion service has already answered and queued
 * (its outbox, the broker): when the two cores of one host are short, it is the work that can wait,
 * while providers wait for the ingestion's answers and users for the gateway's. Each service runs
 * in a session of its own (launch, below), and the kernel shares the cores between sessions by
 * their autogroup nice (sched_autogroup, /proc/<pid>/autogroup): at 10, about a tenth of the
 * weight, rewards yields when the others need the cores and takes them when they do not, so the
 * answers keep their latency target while a credit shows up somewhat later under load (the
 * target-rate step of bench/postbacks.bench.mjs shows both). A deployment gets the same from CPU requests
 * (deploy/k8s), the weights of the containers' cgroups. Raising a nice needs no privilege; where
 * there are no autogroups (another OS, the kernel's sched_autogroup_enabled at 0) the services run
 * as they are.
 */
const NICE = { rewards: creditingNice };
let niceUnavailable = false;
function lowerPriority(prefix, pid, nice) {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch (err) {
    if (!niceUnavailable) console.log(`${prefix} runs at an equal share of the CPU: its scheduling group's nice could not be set (${err.code ?? err.message})`);
    niceUnavailable = true;
  }
}

const children = new Map();
const balancers = [];
let stopping = false;
// Readable coloured logs for a person at a terminal; JSON when the output goes to a file or collector.
const env = { ...process.env };
if (!env.LOG_FORMAT && process.stdout.isTTY && env.NODE_ENV !== 'production') env.LOG_FORMAT = 'pretty';
const gatewayPort = portOf('gateway', { offset });
if (offset > 0) env.PUBLIC_URL ??= `http://localhost:${gatewayPort}`;

/**
 * Each service connects as its own role, limited to its own schema (docs/operations.md, "Database
 * roles"), made here with DATABASE_URL's login as a cluster's roles step makes them; the provider
 * emulators keep that login. Waits for Postgres like the services do.
 */
const ownDatabaseUrls = {};
// DB_SCHEMA given to every process at once names no service's own schema: no roles then.
if (dbRoles && !env.DB_SCHEMA) {
  const require = createRequire(import.meta.url);
  const { untilReachable } = require(path.join(root, 'libs/platform/dist/persistence/data-source.js'));
  const { platformConfigSchema } = require(path.join(root, 'libs/platform/dist/config/platform-config.js'));
  const { postgresTls } = require(path.join(root, 'libs/platform/dist/config/backing-services.js'));
  const { provisionServiceRoles, serviceRoles } = await import('./lib/db-roles.mjs');
  const adminUrl = platformConfigSchema.shape.DATABASE_URL.parse(env.DATABASE_URL);
  const ssl = postgresTls(platformConfigSchema.pick({ DB_TLS: true, DB_TLS_CA_FILE: true, DB_TLS_SERVERNAME: true }).parse(env));
  try {
    Object.assign(ownDatabaseUrls, await untilReachable('Postgres', () => provisionServiceRoles(adminUrl, serviceRoles(env), { ssl }), (what, err, ms) => console.log(`waiting for ${what}: ${err.message}; retrying in ${ms} ms`)));
  } catch (err) {
    console.error(`could not give each service its database role with DATABASE_URL's login (${err.message}); use a login that may create roles, or DB_ROLES=off`);
    process.exit(1);
  }
}

/** The environment of one process: its ports, when they differ from the service's defaults, and its database role. */
const envOf = (name, replica) => {
  const own = serviceEnv(env, name, { offset, replicas, replica });
  return ownDatabaseUrls[name] ? { ...own, DATABASE_URL: ownDatabaseUrls[name] } : own;
};

/** What a Kubernetes Service does for the replicas of the webhooks service: new connections round-robin. */
function balance(port, targets, label) {
  let next = 0;
  const server = net.createServer((client) => {
    const target = targets[next++ % targets.length];
    const upstream = net.connect(target, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  server.on('error', (err) => {
    console.error(`${label.padEnd(13)}| balancer on ${port}: ${err.message}; stopping everything`);
    stop(1);
  });
  server.listen(port, '127.0.0.1');
  balancers.push(server);
}

function launch(name, replica) {
  const entry = entryOf(name);
  if (!existsSync(entry)) {
    console.error(`${entry} is missing: run "npm run build" first (or "npm start", which builds).`);
    process.exit(1);
  }
  const label = replicas > 1 && name !== 'gateway' && name !== 'sandboxes' ? `${name}#${replica + 1}` : name;
  // CPU_PROFILE_DIR: every process writes a V8 CPU profile there when it stops (bench/README.md).
  const profile = process.env.CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`, `--cpu-prof-name=${label}.cpuprofile`] : [];
  // detached: each service in a session of its own, so Linux schedules it as a group of its own
  // (sched_autogroup: one group per session), as a container's cgroup does in a deployment. In this
  // command's session the seven processes would share one group's CPU time, and the provider
  // answers would wait behind rewards' crediting. A terminal's Ctrl-C or hang-up now reaches only this process, which stops them. If
  // this process is killed outright (SIGKILL), each service sees its IPC channel close and stops
  // itself (startService, libs/platform/src/bootstrap/start-service.ts).
  const child = spawn(process.execPath, [...profile, entry], { cwd: root, env: name === 'sandboxes' ? sandboxes.env : envOf(name, replica), stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
  const prefix = `${label.padEnd(replicas > 1 ? 16 : 13)}|`;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(`${prefix} ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(label);
    if (!stopping) {
      console.error(`${prefix} exited (${signal ?? code}); stopping everything`);
      stop(code || 1);
    } else if (children.size === 0) {
      for (const b of balancers) b.close();
      process.exit(process.exitCode ?? 0);
    }
  });
  children.set(label, child);
  if (NICE[name] > 0 && child.pid !== undefined) lowerPriority(prefix, child.pid, NICE[name]);
  return envOf(name, replica);
}

const emulated = env.SANDBOXES_URL ? [] : providersWithoutCredentials(env);
const sandboxes = sandboxesProcess(env, { offset });
if (emulated.length > 0) env.SANDBOXES_URL = sandboxes.url;

const ports = [];
if (emulated.length > 0) {
  launch('sandboxes', 0);
  ports.push(`sandboxes ${sandboxes.port}`);
}
for (const name of services) {
  const count = name === 'gateway' ? 1 : replicas;
  for (let r = 0; r < count; r++) {
    const e = launch(name, r);
    if (offset > 0 || replicas > 1) ports.push(`${name}${count > 1 ? `#${r + 1}` : ''} ${e.OPS_PORT ?? e.HEALTH_PORT}`);
  }
}
if (services.includes('webhooks') && replicas > 1) {
  const targets = Array.from({ length: replicas }, (_, replica) => portOf('webhooks', { offset, replicas, replica }));
  const webhooksPort = portOf('webhooks', { offset });
  balance(webhooksPort, targets, 'webhooks');
  ports.push(`webhooks (balancer) ${webhooksPort}`);
}

const where = env.PUBLIC_URL ?? `http://localhost:${gatewayPort}`;
console.log(`starting ${services.join(', ')}${replicas > 1 ? `, ${replicas} replicas of each backend service` : ''} — the app will be at ${where}`);
if (emulated.length > 0) console.log(`no credentials for ${emulated.join(', ')}: the provider emulators (sandboxes) run at ${env.SANDBOXES_URL}`);
if (offset > 0 || replicas > 1) console.log(`HTTP ports (health, /metrics): ${ports.join(', ')}`);

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  if (children.size === 0) process.exit(code);
  setTimeout(() => process.exit(code), 15_000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
// The services are in sessions of their own: a closed terminal's hang-up reaches only this process.
process.on('SIGHUP', () => stop(0));
// If this process ends before they have (the 15 s grace above, a crash), the services go with it.
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGKILL');
});
