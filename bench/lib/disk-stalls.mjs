/**
 * How long the disk under Postgres' data answered nothing while it was asked: the second baseline
 * under the answer p99, beside lib/machine-stalls.mjs (bench/README.md).
 *
 * A provider is answered after its delivery's commit is durable, so every answer waits for a WAL
 * flush, and a flush waits for the disk. The idle-thread probe of machine-stalls.mjs cannot see a
 * disk that holds its writes: its thread needs no disk, so slow answers can come while that probe
 * loses nothing and pgbench, beside it, sees single inserts take far longer than usual.
 *
 * A worker thread of the bench reads the device's line of /proc/diskstats every 5 ms: I/Os
 * completed (reads, writes, discards, flushes) and I/Os in flight. A stall is a stretch in which
 * something was in flight and nothing completed; its length L runs from the last sample that saw a
 * completion (or nothing asked) to the first that saw one again, to within a sample. Per window:
 * the longest stall, how many were over 50 ms, and the time lost beyond 50 ms, Σ(L − 50), as a
 * share of the window. As in machine-stalls.mjs, that share is the share of instants at which a
 * commit asked for then would have waited more than 50 ms for the disk alone (a flush asked during
 * a stall waits the rest of it); above 1 % of the load, a p99 answer of 50 ms was out of reach in
 * that round for any service that answers after a durable commit on this disk.
 *
 * Linux only, and only where Postgres' data directory is on a device /proc/diskstats lists (the
 * bench runs beside the database); elsewhere the probe says it did not measure. Written by hand:
 * it reads two numbers from a kernel file, and no library reports a block device's stalls.
 */
import fs from 'node:fs';
import { startProbeWorker } from './probe-worker.mjs';

const SAMPLE_MS = 5;
const BEYOND_MS = 50;
/** Stalls this long or longer are listed one by one: beside answers more than 50 ms late, shorter ones explain little. */
const NOTED_MS = 20;

const WORKER = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const { major, minor, sampleMs } = workerData;
const now = () => performance.timeOrigin + performance.now();
// Finished stalls as [start, end], and the one going on.
const stalls = [];
let lastCompleted = -1;
let quietSince = now();
let stalled = false;
function read() {
  for (const line of fs.readFileSync('/proc/diskstats', 'utf8').split('\\n')) {
    const f = line.trim().split(/\\s+/);
    if (Number(f[0]) !== major || Number(f[1]) !== minor) continue;
    // Its fields, counted from 1: 4 reads, 8 writes, 15 discards and 19 flushes completed (the last
    // two on newer kernels only), 12 I/Os in flight.
    const completed = Number(f[3]) + Number(f[7]) + Number(f[14] ?? 0) + Number(f[18] ?? 0);
    return { completed, inFlight: Number(f[11]) };
  }
  return null;
}
function tick() {
  const t = now();
  const s = read();
  if (s) {
    if (s.completed !== lastCompleted || s.inFlight === 0) {
      if (stalled) stalls.push([quietSince, t]);
      stalled = false;
      quietSince = t;
      lastCompleted = s.completed;
    } else {
      stalled = true;
    }
  }
  setTimeout(tick, sampleMs);
}
tick();
parentPort.on('message', ({ from, to }) => {
  const open = stalled ? [[quietSince, now()]] : [];
  parentPort.postMessage(
    [...stalls, ...open]
      .filter(([start, end]) => end > from && start < to)
      .map(([start, end]) => ({ lengthMs: end - start, startMs: start - from })),
  );
});
`;

/** major and minor of a dev_t as Linux encodes it (glibc's gnu_dev_major/gnu_dev_minor). */
function majorMinor(dev) {
  return {
    major: Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn)),
    minor: Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn)),
  };
}

/**
 * Starts the probe on the device holding `dataDirectory` (Postgres' `SHOW data_directory`).
 * Answers { device, window(from, to) } with window taking this process's performance.now() values,
 * or { missing: why } where the device cannot be read here.
 */
export function startDiskStallProbe(dataDirectory) {
  let id;
  try {
    id = majorMinor(fs.statSync(dataDirectory, { bigint: true }).dev);
  } catch (err) {
    return { missing: `${dataDirectory} is not readable here (${err.code ?? err.message}): is the database on another machine?` };
  }
  let lines;
  try {
    lines = fs.readFileSync('/proc/diskstats', 'utf8').split('\n');
  } catch {
    return { missing: 'no /proc/diskstats (Linux only)' };
  }
  const line = lines.map((l) => l.trim().split(/\s+/)).find((f) => Number(f[0]) === id.major && Number(f[1]) === id.minor);
  if (!line)
    return {
      missing: `${dataDirectory} is on device ${id.major}:${id.minor}, which /proc/diskstats does not list (an overlay or network filesystem)`,
    };

  return { device: line[2], ...startProbeWorker(WORKER, { ...id, sampleMs: SAMPLE_MS }, summarise) };
}

function summarise(stalls, windowMs) {
  // Time lost beyond 50 ms, inside the window only: what each stall held past its own 50th
  // millisecond, clipped to the window (a stall may begin before it or end after it).
  const lostMs = stalls.reduce(
    (sum, s) => sum + Math.max(0, Math.min(s.startMs + s.lengthMs, windowMs) - Math.max(s.startMs + BEYOND_MS, 0)),
    0,
  );
  const longest = stalls.reduce((a, s) => (a && a.lengthMs >= s.lengthMs ? a : s), null);
  return {
    /** Every stall of NOTED_MS or longer, in ms from the window's start, the earliest first: to set beside when slow answers came. */
    noted: stalls.filter((s) => s.lengthMs >= NOTED_MS).sort((a, b) => a.startMs - b.startMs),
    maxMs: longest?.lengthMs ?? 0,
    /** When the longest began, in ms from the window's start (negative: before it). */
    longestAtMs: longest?.startMs ?? NaN,
    over: stalls.filter((s) => s.lengthMs > BEYOND_MS).length,
    lostMs,
    share: windowMs > 0 ? lostMs / windowMs : NaN,
  };
}

export const DISK_STALL_BEYOND_MS = BEYOND_MS;
