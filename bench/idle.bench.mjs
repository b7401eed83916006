#!/usr/bin/env node
// What a running product costs while nobody uses it: the CPU each part used a second over
// BENCH_IDLE_SECONDS with no request sent, beside what an idle Node process costs on this machine
// in the same run (the floor: a process that keeps one timer alive and does nothing). On a machine
// the parts share, what they spend idling they also spend under load, taken from the requests.
// It starts nothing: start the product first
// (npm start).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuPerOperation, cpuSnapshot, pidsOf, processCpuMs, SERVICES, statFields, TICK_MS } from './lib/cpu-by-process.mjs';

const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
// A service's first minutes are not idle: it compiles its code and connects, and spends well above
// its settled CPU for a while after npm start.
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 120);
const DATABASE_URL = process.env.PGBENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/esim_rewards';

if (!fs.existsSync('/proc/self/stat')) {
  console.error('idle bench: needs Linux /proc');
  process.exit(1);
}
const pids = SERVICES.flatMap((s) => pidsOf(s));
if (pids.length === 0) {
  console.error('idle bench: no service of the product is running here (start it with npm start)');
  process.exit(1);
}

// Waits until the youngest service has run SETTLE_SECONDS (field 22 of /proc/<pid>/stat: its start, in ticks since boot).
const uptime = () => Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
const youngest = Math.max(...pids.map((pid) => (Number(statFields(pid)[19]) * TICK_MS) / 1000));
const wait = youngest + SETTLE_SECONDS - uptime();
if (wait > 0) {
  console.log(`waiting ${Math.ceil(wait)} s until every service has run ${SETTLE_SECONDS} s (BENCH_SETTLE_SECONDS)`);
  await sleep(wait * 1_000);
}

// The baseline, measured over the same seconds: a Node process that does nothing but stay alive.
const floor = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
await sleep(2_000); // its start-up is not idling
const floorBefore = processCpuMs(floor.pid);
const start = cpuSnapshot(DATABASE_URL);
await sleep(SECONDS * 1_000);
const end = cpuSnapshot(DATABASE_URL);
const floorMs = processCpuMs(floor.pid) - floorBefore;
floor.kill();

// CPU "per operation" where the operation is a second of idling: ms/s by part, largest first.
const parts = cpuPerOperation(start, end, SECONDS);
const total = parts.reduce((sum, p) => sum + p.ms, 0);
const services = parts.filter((p) => SERVICES.includes(p.part));

console.log(`idle for ${SECONDS} s (CPU clock ticks of ${TICK_MS} ms: figures are ±${(TICK_MS / SECONDS).toFixed(2)} ms/s a part)`);
console.log(`floor           an idle Node process: ${(floorMs / SECONDS).toFixed(1)} ms of CPU a second`);
for (const p of parts) console.log(`${p.part.padEnd(15)} ${p.ms.toFixed(1)} ms/s`);
console.log(`services        ${services.reduce((sum, p) => sum + p.ms, 0).toFixed(1)} ms/s for ${services.length} Node services`);
console.log(`product         ${total.toFixed(1)} ms/s in all: ${(total / 10 / os.availableParallelism()).toFixed(1)} % of this machine's ${os.availableParallelism()} cores`);
