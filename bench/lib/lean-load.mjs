// A closed-loop HTTP/1.1 load generator over raw keep-alive sockets: each connection sends one GET,
// waits for the whole answer, records the latency, sends the next. Written here instead of using
// autocannon because on a host with few cores the load generator takes its CPU from the product it
// measures: autocannon builds a request object, events and an HDR histogram per request, several
// times the CPU of a request here, which is one prebuilt string written and one answer parsed
// (bench/postbacks.bench.mjs prints the generator's own CPU per request).
// It speaks only what the benchmarks need: GET, answers with Content-Length or chunked bodies.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { percentile } from './product-client.mjs';

const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

/**
 * Sends GET `paths[i]` for every i, over `connections` sockets at once, each waiting for its
 * answer before the next. Answers the counts and the latencies (ms) in the shape bench scripts
 * print: requests.total, 2xx, non2xx, errors, timeouts, latency.p50/p99/max. `onStart` is called
 * as the first connections open (with `rate`, once every connection is open and the schedule starts).
 *
 * With `rate` (requests a second) the load is an open loop instead: request i is due `i / rate`
 * seconds after the start and sent then by a free connection, and its latency counts from when it
 * was due, so a request that found every connection busy counts its wait too (no coordinated
 * omission: a slow answer cannot hold back the requests behind it unseen). It then also answers
 * `latencyByRequest`, each request's latency by its index, so a caller can say when the slow ones
 * were due.
 */
export async function leanLoad({ url, connections, paths, rate, timeoutMs = 30_000, onStart = () => {} }) {
  const target = new URL(url);
  const port = Number(target.port || 80);
  const host = target.hostname;
  const hostHeader = target.host;
  const latencies = new Float64Array(paths.length);
  /** With `rate`: how late each request left after it was due (the generator's own delay, or every connection busy). */
  const late = [];
  /**
   * The same, split by why. `busy`: requests that were already due when a connection came free for
   * them, so every connection was waiting for an answer (the product's backlog). `timer`: requests a
   * free connection waited for, sent when its timer fired (the generator's own delay: its event
   * loop, or a core it did not get).
   */
  const lateBusy = [];
  const lateTimer = [];
  /** With `rate`: each request's latency by its index (request i was due i / rate seconds after the start), NaN if unanswered. */
  const byRequest = rate === undefined ? null : new Float64Array(paths.length).fill(NaN);
  let next = 0;
  let answered = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  // A closed loop counts its seconds from before any connection opens. An open loop's schedule
  // starts once every connection is open: a request's latency leaves out the connect, as wrk's
  // do in the rounds' closed loop, instead of the first requests waiting for 50 connects at once.
  let started = performance.now();
  let opened = 0;
  let scheduleStarts;
  const everyConnectionOpen = new Promise((resolve) => (scheduleStarts = resolve));

  const request = (path) => `GET ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nAccept: */*\r\n\r\n`;

  /** One connection's loop; reconnects when the server closes it or it fails. */
  const worker = () =>
    new Promise((resolve) => {
      let socket;
      let buffer = Buffer.alloc(0);
      let sentAt = 0;
      let current = -1;
      let timer;
      /** Whether this connection's first open was counted towards the open loop's start. */
      let counted = false;

      const send = () => {
        if (next >= paths.length) {
          socket.end();
          return resolve();
        }
        current = next++;
        buffer = Buffer.alloc(0);
        if (rate === undefined) return fire(performance.now());
        const due = started + (current * 1000) / rate;
        const now = performance.now();
        if (now > due) {
          lateBusy.push(now - due);
          return fire(due);
        }
        sendAt(due);
      };

      /**
       * Sends at `due` (timers have a millisecond's grain), counting from it, or from the moment it
       * left where that came up to a millisecond early: the latency is never shortened.
       */
      const sendAt = (due) => {
        const now = performance.now();
        if (due - now >= 1) timer = setTimeout(() => sendAt(due), due - now);
        else {
          if (now > due) lateTimer.push(now - due);
          fire(Math.min(due, now));
        }
      };

      /** Sends request `current`, whose latency counts from `from`. */
      const fire = (from) => {
        sentAt = from;
        if (rate !== undefined) late.push(Math.max(0, performance.now() - from));
        timer = setTimeout(() => {
          timeouts++;
          current = -1;
          socket.destroy();
        }, timeoutMs);
        socket.write(request(paths[current]));
      };

      /** The answer's length in `buffer` once it is whole, else -1. */
      const wholeAnswer = () => {
        const headEnd = buffer.indexOf(HEAD_END);
        if (headEnd < 0) return -1;
        const head = buffer.toString('latin1', 0, headEnd);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (length) {
          const total = headEnd + 4 + Number(length[1]);
          return buffer.length >= total ? total : -1;
        }
        if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
          const end = buffer.indexOf(CHUNKED_END, headEnd + 4);
          return end < 0 ? -1 : end + CHUNKED_END.length;
        }
        return headEnd + 4; // no body (204, 304)
      };

      const connect = () => {
        socket = net.connect(port, host);
        socket.setNoDelay(true);
        socket.on('connect', () => {
          if (rate === undefined || counted) return send();
          counted = true;
          if (++opened === connections) {
            started = performance.now();
            onStart();
            scheduleStarts();
          }
          everyConnectionOpen.then(send);
        });
        socket.on('data', (chunk) => {
          buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
          if (current < 0 || wholeAnswer() < 0) return;
          clearTimeout(timer);
          const status = Number(buffer.toString('latin1', 9, 12));
          const latency = performance.now() - sentAt;
          latencies[answered++] = latency;
          if (byRequest) byRequest[current] = latency;
          if (status >= 200 && status < 300) ok++;
          else non2xx++;
          current = -1;
          send();
        });
        // A failure is counted once, by 'close', which always follows.
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(timer);
          if (current >= 0) {
            // Closed mid-request: counted as an error; that request is not sent again.
            errors++;
            current = -1;
          }
          if (next < paths.length) connect();
          else resolve();
        });
      };
      connect();
    });

  if (rate === undefined) onStart();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  const round = (ms) => Math.round(ms * 10) / 10;
  /** p50, p99 and max of milliseconds, to a tenth (the benches' one percentile rule). */
  const summary = (ms) => ({ p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(percentile(ms, 100)) });
  return {
    requests: { total: answered + errors + timeouts },
    '2xx': ok,
    non2xx,
    errors,
    timeouts,
    seconds,
    latency: summary(Array.from(latencies.subarray(0, answered))),
    ...(rate === undefined
      ? {}
      : {
          latencyByRequest: byRequest,
          sentLate: summary(late),
          sentLateBecause: {
            busy: { count: lateBusy.length, ...summary(lateBusy) },
            timer: { count: lateTimer.length, ...summary(lateTimer) },
          },
        }),
  };
}
