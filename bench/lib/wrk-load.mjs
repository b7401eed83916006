// The same closed-loop load as lean-load.mjs (each connection sends one GET, waits for the whole
// answer, sends the next; every path exactly once) driven by wrk, a load generator in C, when it
// is installed (Debian's package `wrk`). On two cores the load generator takes its CPU from the
// product it measures: lean-load costs 0.03-0.05 ms of CPU a request in bench/postbacks.bench.mjs,
// wrk somewhat less (the bench prints the load generator's CPU per credit either way).
// wrk runs for a duration, not a list: wrk-paths.lua makes it send each path once and stop.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-paths.lua');

/** Whether `wrk` runs here. */
export function wrkInstalled() {
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

/**
 * Sends GET `paths[i]` for every i over `connections` sockets, as leanLoad does, with wrk's
 * threads (one per core). Answers the same shape: requests.total, 2xx, non2xx, errors, timeouts,
 * latency.p50/p99/max (ms). `onStart` is called as the load starts, once the paths are written to
 * wrk's file (writing 20,000 of them takes tens of milliseconds). wrk's latencies carry its
 * correction for coordinated omission: a slow answer also counts the requests its connection could
 * not send meanwhile, so p99 is if anything higher than lean-load's for the same answers.
 */
export async function wrkLoad({ url, connections, paths, timeoutMs = 30_000, maxWaitMs = 600_000, onStart = () => {} }) {
  const threads = Math.max(1, Math.min(os.cpus().length, connections));
  const file = path.join(os.tmpdir(), `wrk-paths-${randomBytes(4).toString('hex')}.txt`);
  await fs.writeFile(file, `${paths.join('\n')}\n`);
  try {
    const args = ['-t', String(threads), '-c', String(connections), '-d', '3600s', '--timeout', `${Math.ceil(timeoutMs / 1000)}s`, '-s', SCRIPT, url, '--', file, String(threads)];
    const out = await new Promise((resolve, reject) => {
      // The load starts now: the paths are written, wrk's own start (a few ms) is all that is left.
      onStart();
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      let done = 0;
      // A thread whose request failed never hears all its answers: give up after maxWaitMs.
      const watchdog = setTimeout(() => child.kill('SIGINT'), maxWaitMs);
      child.stdout.on('data', (chunk) => {
        const before = done;
        text += chunk;
        done = text.split('wrk-thread-done').length - 1;
        if (before < threads && done >= threads) child.kill('SIGINT');
      });
      child.stderr.on('data', (chunk) => (text += chunk));
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(watchdog);
        if (code === 0) resolve(text);
        else reject(new Error(`wrk exited ${code}:\n${text}`));
      });
    });
    const line = /wrk-result (\{.*\})/.exec(out);
    if (!line) throw new Error(`no result in wrk's output:\n${out}`);
    const r = JSON.parse(line[1]);
    const round = (ms) => Math.round(ms * 10) / 10;
    return {
      requests: { total: r.requests + r.errors },
      '2xx': r.requests - r.non2xx,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      seconds: r.us / 1e6,
      latency: { p50: round(r.p50), p99: round(r.p99), max: round(r.max) },
    };
  } finally {
    await fs.rm(file, { force: true });
  }
}
