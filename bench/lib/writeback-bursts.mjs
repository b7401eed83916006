/**
 * When the kernel wrote back a lump of dirty page cache at once: the third baseline under the
 * open loop's slow answers, beside lib/disk-stalls.mjs and lib/machine-stalls.mjs (bench/README.md).
 *
 * Postgres 15 extends a table or an index by writing a page of zeros into the page cache, and
 * `backend_flush_after` (which the services set, docs/operations.md) covers only the data pages a
 * backend writes out of its buffers, not those. Under the load most of the data-file pages
 * Postgres dirties come from that extension, and the kernel, by default, writes pages dirty for
 * 30 s all at once, tens of MB within a fraction of a second, while every answer waits on a WAL
 * flush to the same disk. The disk probe saw no stall under
 * them (the disk kept completing writes, only slowly for the WAL), so it takes this probe to see
 * them.
 *
 * A worker thread reads `Dirty:` from /proc/meminfo every 20 ms. A burst is a run of 100 ms steps
 * in which the dirty pages fell by BURST_STEP_MB or more each (the load dirties them at tens of MB a
 * second, so only the kernel's writeback empties them that fast), merged where they are 200 ms apart
 * or less; it is listed when it cleaned NOTED_MB or more. `Dirty:` counts the whole machine, every
 * disk: where Postgres shares the machine with other writers, their writeback shows too.
 *
 * Linux only; elsewhere the probe says it did not measure. Written by hand: it reads one number
 * from a kernel file, and no library reports the kernel's writeback as it happens.
 */
import fs from 'node:fs';
import { startProbeWorker } from './probe-worker.mjs';

const SAMPLE_MS = 20;
const STEP_MS = 100;
const BURST_STEP_MB = 8;
const MERGE_MS = 200;
/** Bursts this large or larger are listed: `vm.dirty_background_bytes=16777216` left the flusher cleaning 15-16 MB at a time, which held no answer. */
const NOTED_MB = 32;

const WORKER = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const now = () => performance.timeOrigin + performance.now();
// [epoch ms, Dirty in kB], the last ten minutes.
const samples = [];
function tick() {
  const m = /^Dirty:\\s+(\\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'));
  if (m) samples.push([now(), Number(m[1])]);
  while (samples.length && samples[0][0] < now() - 600000) samples.shift();
  setTimeout(tick, workerData.sampleMs);
}
tick();
parentPort.on('message', ({ from, to }) => {
  // From one step before the window, so a fall in its first 100 ms is measured against the
  // sample before it (a burst begun earlier than that shows only its part inside the window).
  parentPort.postMessage(samples.filter(([t]) => t >= from - workerData.stepMs && t <= to).map(([t, kb]) => [t - from, kb]));
});
`;

/** Starts the probe. Answers { window(from, to) } (this process's performance.now() values), or { missing: why }. */
export function startWritebackProbe() {
  try {
    if (!/^Dirty:/m.test(fs.readFileSync('/proc/meminfo', 'utf8'))) return { missing: 'no Dirty: line in /proc/meminfo' };
  } catch {
    return { missing: 'no /proc/meminfo (Linux only)' };
  }
  return startProbeWorker(WORKER, { sampleMs: SAMPLE_MS, stepMs: STEP_MS }, summarise);
}

/**
 * The window's most dirty page cache, and its bursts: { startMs, lengthMs, mb } from the window's
 * start, the earliest first (`noted`: those of NOTED_MB or more).
 */
function summarise(samples, windowMs) {
  const mb = (kb) => kb / 1024;
  const inside = samples.filter(([t]) => t >= 0 && t <= windowMs);
  const bursts = [];
  let j = 0;
  for (let i = 0; i < samples.length; i++) {
    const [t, kb] = samples[i];
    // The sample one step earlier (or the earliest within it).
    while (j < i && samples[j + 1][0] <= t - STEP_MS) j++;
    const [t0, kb0] = samples[j];
    if (t - t0 < STEP_MS / 2 || mb(kb0 - kb) < BURST_STEP_MB) continue;
    const open = bursts.at(-1);
    if (open && t0 - open.endMs <= MERGE_MS) {
      open.endMs = t;
      open.lowKb = Math.min(open.lowKb, kb);
    } else bursts.push({ startMs: t0, endMs: t, highKb: kb0, lowKb: kb });
  }
  const all = bursts
    .filter((b) => b.endMs >= 0 && b.startMs <= windowMs)
    .map((b) => ({ startMs: b.startMs, lengthMs: b.endMs - b.startMs, mb: mb(b.highKb - b.lowKb) }));
  return {
    maxMb: inside.length ? mb(Math.max(...inside.map(([, kb]) => kb))) : NaN,
    noted: all.filter((b) => b.mb >= NOTED_MB),
  };
}

export const WRITEBACK_NOTED_MB = NOTED_MB;
