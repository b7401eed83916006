/**
 * The worker thread under the bench's stall probes (machine-stalls.mjs, disk-stalls.mjs): it
 * samples on its own thread, so the bench's main thread, busy with the load, cannot delay a
 * sample; the bench asks it for one window of samples at a time.
 */
import { Worker } from 'node:worker_threads';

/**
 * Starts `source` (CommonJS, run with `workerData`) on a worker thread. The worker answers a
 * message { from, to } (epoch milliseconds) with what it sampled between them; `summarise(samples,
 * windowMs)` turns that into the window's figures. `window(from, to)` takes this process's
 * performance.now() values.
 */
export function startProbeWorker(source, workerData, summarise) {
  const worker = new Worker(source, { eval: true, workerData });
  worker.unref();
  const origin = performance.timeOrigin;
  return {
    /** What the probe saw between two moments of the bench (performance.now()). */
    window(from, to) {
      return new Promise((resolve, reject) => {
        worker.once('message', (samples) => resolve(summarise(samples, to - from)));
        worker.once('error', reject);
        worker.postMessage({ from: origin + from, to: origin + to });
      });
    },
    stop: () => worker.terminate(),
  };
}
