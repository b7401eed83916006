/**
 * How long the machine itself kept a thread from running: the baseline under the answer p99,
 * measured in the same run as the load (bench/README.md).
 *
 * A worker thread of the bench sleeps 5 ms again and again and records how late each wake-up came.
 * It does no work of its own, so the kernel's scheduler runs it as soon as it may: on an idle host
 * it wakes a few ms late, beside many busy loops far later. A late wake-up is a thread
 * that wanted to run and could not, whatever kept it (a long run queue, the host): the ingestion
 * service's threads, its Postgres backend's and the load generator's waited the same way.
 *
 * Per window: the largest lateness, the 99th percentile, and the time lost beyond 50 ms, Σ(L − 50)
 * over wake-ups L > 50 ms. That sum, divided by the window's length, is the share of instants at
 * which a request arriving then would have waited more than 50 ms for the machine alone (an
 * arrival during a stall of L ms waits the rest of it). Above 1 % of the load, a p99 answer of at
 * most 50 ms for requests arriving at any instant (what wrk's correction for coordinated omission
 * estimates) was out of reach in that round for a service the machine stalled the same way.
 *
 * Written by hand: it is a timer loop and a sum, and no library measures scheduling delay of a
 * thread from inside Node.
 */
import { percentile } from './product-client.mjs';
import { startProbeWorker } from './probe-worker.mjs';

const SLEEP_MS = 5;
const BEYOND_MS = 50;
/** Wake-ups this late or later are listed one by one (well above what an idle host shows). */
const NOTED_MS = 20;

const WORKER = `
const { parentPort } = require('node:worker_threads');
const SLEEP_MS = ${SLEEP_MS};
const at = [];
const late = [];
const now = () => performance.timeOrigin + performance.now();
let due = now() + SLEEP_MS;
function tick() {
  const t = now();
  at.push(t);
  late.push(Math.max(0, t - due));
  due = t + SLEEP_MS;
  setTimeout(tick, SLEEP_MS);
}
setTimeout(tick, SLEEP_MS);
parentPort.on('message', ({ from, to }) => {
  // [when it woke, in ms from the window's start; how late]
  const wakeUps = [];
  for (let i = 0; i < at.length; i++) if (at[i] >= from && at[i] <= to) wakeUps.push([at[i] - from, late[i]]);
  parentPort.postMessage(wakeUps);
});
`;

/** Starts the probe; `window(from, to)` takes this process's performance.now() values. */
export function startStallProbe() {
  return startProbeWorker(WORKER, undefined, summarise);
}

function summarise(wakeUps, windowMs) {
  const lateness = wakeUps.map(([, l]) => l);
  const lostMs = lateness.reduce((sum, l) => sum + Math.max(0, l - BEYOND_MS), 0);
  return {
    /** Every wake-up NOTED_MS or more late, as the stall it ended (start in ms from the window's start, length): to set beside when slow answers came. */
    noted: wakeUps.filter(([, l]) => l >= NOTED_MS).map(([t, l]) => ({ startMs: t - l, lengthMs: l })),
    wakeUps: lateness.length,
    maxMs: percentile(lateness, 100),
    p99Ms: percentile(lateness, 99),
    lostMs,
    share: windowMs > 0 ? lostMs / windowMs : NaN,
  };
}

export const STALL_BEYOND_MS = BEYOND_MS;
