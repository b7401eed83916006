#!/usr/bin/env node
// GET /api/user under load against a running product (it starts nothing of the product itself),
// beside a bare Node HTTP server measured in the same run; then how many live streams
// (GET /api/events) one gateway holds, its memory per stream, and how fast a change reaches them
// all. See bench/README.md.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { benchUser, env, fmt, GATEWAY_URL, percentile, session, sleep } from './lib/product-client.mjs';

const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const SECONDS = Number(env('BENCH_SECONDS', '10'));
const STREAMS = Number(env('BENCH_STREAMS', '5000'));
const TARGET_SHARE = 0.15;
const TARGET_P99_MS = 25;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** A bare Node HTTP server in its own process, answering a body of the same size as /api/user's. */
async function startBareServer(body) {
  const source = `const b = Buffer.from(process.env.BODY); require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': b.length }); s.end(b); }).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });`;
  const child = spawn(process.execPath, ['-e', source], { env: { ...process.env, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill() };
}

/** CPU time (user + system) a process has used, in µs, from /proc; NaN when it cannot be read. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1e6) / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  } catch {
    return NaN;
  }
}

/**
 * autocannon for BENCH_SECONDS; with the server's pid, also the CPU time it spent per answer: on a
 * shared, loaded machine throughput follows the share of CPU the server got, this does not.
 */
async function cannon(url, headers = {}, pid = null) {
  const cpuBefore = pid ? cpuMicros(pid) : NaN;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const cpu = pid ? (cpuMicros(pid) - cpuBefore) / Math.max(1, result.requests.total) : NaN;
  const bad = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, bad, cpu };
}

/** The gateway's process, to read its memory: GATEWAY_PID, else whoever listens on its port here. */
function gatewayPid() {
  if (process.env.GATEWAY_PID) return Number(process.env.GATEWAY_PID);
  const { hostname, port } = new URL(GATEWAY_URL);
  if (!['localhost', '127.0.0.1', '::1'].includes(hostname)) return null;
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port || 80}`], { encoding: 'utf8' });
    const pid = /pid=(\d+)/.exec(out);
    return pid ? Number(pid[1]) : null;
  } catch {
    return null;
  }
}
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

/** One live stream: resolves once its first view arrived; `pushes` counts the views after it. */
function openStream(cookie) {
  return new Promise((resolve) => {
    const stream = { res: null, req: null, pushes: 0, lastPushAt: 0, ok: false, status: 0 };
    let buffered = '';
    let first = true;
    const req = http.get(`${GATEWAY_URL}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, agent: false }, (res) => {
      stream.res = res;
      stream.status = res.statusCode;
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(stream);
      }
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffered += chunk;
        let end;
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!message.startsWith('event: user')) continue;
          if (first) {
            first = false;
            stream.ok = true;
            resolve(stream);
          } else {
            stream.pushes += 1;
            stream.lastPushAt = performance.now();
          }
        }
      });
    });
    stream.req = req;
    req.on('error', () => resolve(stream));
  });
}

console.log(`load average at start: ${load()} (${os.cpus().length} cores)`);

// 1. The user, and the body the bare server answers (the same size).
const call = session();
await benchUser(call);
const view = await call('GET', '/api/user');
const body = JSON.stringify(view);

// 2. A bare Node HTTP server, then GET /api/user, same connections and duration.
const bare = await startBareServer(body);
console.log(`bare Node HTTP server: ${CONNECTIONS} connections, ${SECONDS} s, ${body.length}-byte JSON answer`);
const bareResult = await cannon(bare.url, {}, bare.pid);
bare.stop();
console.log(`GET ${GATEWAY_URL}/api/user: ${CONNECTIONS} connections, ${SECONDS} s, signed in`);
const pid = gatewayPid();
const userResult = await cannon(`${GATEWAY_URL}/api/user`, { cookie: call.cookie() }, pid);
const share = userResult.rps / bareResult.rps;
const loadAfterHttp = load();

// 3. Live streams: open them, read the gateway's memory, push one change to all of them.
const rssBefore = pid ? rssKb(pid) : NaN;
const streams = [];
const opening = performance.now();
for (let i = 0; i < STREAMS; i += 200) {
  streams.push(...(await Promise.all(Array.from({ length: Math.min(200, STREAMS - i) }, () => openStream(call.cookie())))));
}
const held = streams.filter((s) => s.ok);
const openedIn = (performance.now() - opening) / 1000;
const refused = streams.filter((s) => !s.ok);
await sleep(1000);
const rssHeld = pid ? rssKb(pid) : NaN;

// A settings change: identity announces it, one replica applies it and every stream gets the view.
const current = (await call('GET', '/api/user')).settings.dataAlerts;
const changedAt = performance.now();
await call('PATCH', '/api/user/settings', { dataAlerts: !current });
const deadline = Date.now() + 30_000;
while (held.some((s) => s.pushes === 0) && Date.now() < deadline) await sleep(20);
const reached = held.filter((s) => s.pushes > 0);
const pushLatency = reached.map((s) => s.lastPushAt - changedAt);
for (const s of streams) s.req?.destroy();

const ok = userResult.bad === 0 && bareResult.bad === 0 && share >= TARGET_SHARE && userResult.p99 <= TARGET_P99_MS;
console.log(`
                      requests/s     p50     p99   requests  errors   CPU/request
bare Node HTTP      ${fmt(bareResult.rps).padStart(12)} ${fmt(bareResult.p50).padStart(5)} ms ${fmt(bareResult.p99).padStart(5)} ms ${String(bareResult.total).padStart(10)} ${String(bareResult.bad).padStart(7)} ${fmt(bareResult.cpu).padStart(9)} µs
GET /api/user       ${fmt(userResult.rps).padStart(12)} ${fmt(userResult.p50).padStart(5)} ms ${fmt(userResult.p99).padStart(5)} ms ${String(userResult.total).padStart(10)} ${String(userResult.bad).padStart(7)} ${fmt(userResult.cpu).padStart(9)} µs
ratio               ${fmt(share * 100, 1)}% of bare (target >= ${TARGET_SHARE * 100}% with p99 <= ${TARGET_P99_MS} ms): ${ok ? 'met' : 'NOT met'}; by CPU per request: ${fmt((bareResult.cpu / userResult.cpu) * 100, 1)}%
load average        ${loadAfterHttp} after the HTTP runs

live streams        ${held.length} of ${STREAMS} held by one gateway (opened in ${fmt(openedIn, 1)} s)${refused.length ? `; ${refused.length} refused (status ${[...new Set(refused.map((s) => s.status))].join(', ')}${refused.some((s) => s.status === 429) ? ': raise LIVE_STREAMS_PER_USER on the gateway' : ''})` : ''}
memory              ${pid ? `gateway RSS ${fmt(rssBefore / 1024, 1)} MB -> ${fmt(rssHeld / 1024, 1)} MB: ${fmt(((rssHeld - rssBefore) * 1024) / Math.max(1, held.length))} bytes per stream` : 'n/a (set GATEWAY_PID to read the gateway process memory)'}
one change pushed   to ${reached.length} of ${held.length} streams: p50 ${fmt(percentile(pushLatency, 50))} ms, p99 ${fmt(percentile(pushLatency, 99))} ms, last ${fmt(Math.max(...pushLatency))} ms after the settings change answered
load average        ${load()} at the end`);
process.exit(ok && reached.length === held.length ? 0 : 1);
