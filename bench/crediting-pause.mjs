#!/usr/bin/env node
// Diagnostic, not a verdict: how much of the provider's answer latency is the crediting's CPU.
// Sends closed-loop loads of postbacks straight to the ingestion service, alternating loads with
// rewards paused (SIGSTOP for the load, SIGCONT after it) and running, and prints each load's
// answers/s and latency, and the crediting's CPU per credit (for a paused load, of its backlog
// applied alone once rewards runs again). Between loads it waits until every credit is in the
// balance, so a running load never competes with a paused one's backlog; at the end it checks
// exactly once.
// Needs a running product on this machine (it signals rewards' process) with sandbox walls.
// See bench/README.md.
import { planPostbacks, postbackSigner } from './lib/postback-signing.mjs';
import { cpuPerOperation, cpuSnapshot, pidsOf } from './lib/cpu-by-process.mjs';
import { leanLoad } from './lib/lean-load.mjs';
import { wrkInstalled, wrkLoad } from './lib/wrk-load.mjs';
import { benchUser, env, fmt, GATEWAY_URL, pointsReached, session, sleep } from './lib/product-client.mjs';

const TARGET_URL = env('BENCH_TARGET_URL', 'http://localhost:3106').replace(/\/$/, '');
const PROVIDER = env('BENCH_PROVIDER', 'cpx');
const REQUESTS = Number(env('BENCH_REQUESTS', '20000'));
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const DUPLICATE_SHARE = Number(env('BENCH_DUPLICATE_SHARE', '0.1'));
const LOADS = Number(env('BENCH_LOADS', '6'));
const SETTLE_TIMEOUT_MS = Number(env('BENCH_SETTLE_TIMEOUT_MS', '180000'));
const load = wrkInstalled() ? wrkLoad : leanLoad;
const DATABASE_URL = env('PGBENCH_DATABASE_URL', env('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/esim_rewards'));
/** The parts that credit (rewards, its Postgres backends, the gateway's live notices, the broker), as cpu-by-process names them. */
const CREDITING = ['rewards', 'pg:rewards', 'gateway', 'rabbitmq'];
const cpuLine = (before, after, credits) =>
  cpuPerOperation(before, after, credits)
    .filter((r) => CREDITING.includes(r.part))
    .map((r) => `${r.part} ${fmt(r.ms, 3)}`)
    .join(', ');

/** The process to pause: BENCH_PAUSE_PID, else the one running rewards (scripts/start-all.mjs runs one). */
function pausedPid() {
  if (process.env.BENCH_PAUSE_PID) return Number(process.env.BENCH_PAUSE_PID);
  const [pid, ...more] = pidsOf('rewards');
  if (pid === undefined || more.length > 0)
    throw new Error(`${pid === undefined ? 'no' : 'more than one'} rewards process here: start the product (node scripts/start-all.mjs) or set BENCH_PAUSE_PID`);
  return pid;
}

const balanceReaches = async (call, target) => (await pointsReached(call, target, SETTLE_TIMEOUT_MS)) !== null;

const pid = pausedPid();
const signedPath = postbackSigner(PROVIDER, env('BENCH_PUBLIC_URL', GATEWAY_URL));
const call = session();
const user = await benchUser(call);
await sleep(500); // the ingestion service learns of the user from the same event as rewards
const startPoints = (await call('GET', '/api/user')).points;
let unique = 0;
// A warm-up, not measured (see postbacks.bench.mjs).
const warm = planPostbacks(signedPath, user.id, 2000, 0);
await load({ url: TARGET_URL, connections: CONNECTIONS, paths: warm.planned });
unique += warm.unique;
if (!(await balanceReaches(call, startPoints + unique))) throw new Error('the warm-up was not credited in time');

console.log(`${LOADS} loads of ${REQUESTS} postbacks over ${CONNECTIONS} connections to ${TARGET_URL}, ~${Math.round(DUPLICATE_SHARE * 100)}% replays; rewards (pid ${pid}) paused during every other load`);
const byState = { paused: [], running: [] };
for (let i = 0; i < LOADS; i++) {
  const paused = i % 2 === 0;
  const { planned, unique: fresh } = planPostbacks(signedPath, user.id, REQUESTS, DUPLICATE_SHARE);
  let started = performance.now();
  const cpuBefore = cpuSnapshot(DATABASE_URL);
  if (paused) process.kill(pid, 'SIGSTOP');
  let result;
  let answeredAt;
  try {
    result = await load({ url: TARGET_URL, connections: CONNECTIONS, paths: planned, onStart: () => (started = performance.now()) });
  } finally {
    answeredAt = performance.now();
    if (paused) process.kill(pid, 'SIGCONT');
  }
  // For a paused load, the crediting's CPU is counted from the moment it runs again: the backlog alone.
  const cpuFrom = paused ? cpuSnapshot(DATABASE_URL) : cpuBefore;
  const perSecond = result.requests.total / ((answeredAt - started) / 1000);
  unique += fresh;
  const credited = await balanceReaches(call, startPoints + unique);
  const creditedIn = (performance.now() - (paused ? answeredAt : started)) / 1000;
  const cpuAfter = cpuSnapshot(DATABASE_URL);
  byState[paused ? 'paused' : 'running'].push(result.latency.p99);
  console.log(
    `load ${i + 1}, rewards ${paused ? 'paused ' : 'running'}: ${fmt(perSecond)} answers/s (${result['2xx']} 2xx), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms${credited ? '' : '; NOT all credited in time'}`,
  );
  console.log(
    `  ${fresh} credits ${paused ? 'applied after the load' : 'applied beside the load'} in ${fmt(creditedIn, 1)} s; crediting's CPU per credit (ms): ${cpuLine(cpuFrom, cpuAfter, fresh)}`,
  );
}
await sleep(2000);
const grown = (await call('GET', '/api/user')).points - startPoints;
console.log(`answer p99      paused: ${byState.paused.join(' · ')} ms; running: ${byState.running.join(' · ')} ms`);
console.log(`exactly once    balance grew by ${grown} points for ${unique} unique transactions: ${grown === unique ? 'OK' : 'MISMATCH'}`);
if (grown !== unique) process.exitCode = 1;
