import type { Counter, Gauge, Histogram } from 'prom-client';
import type { DataSource } from 'typeorm';
import { Metrics } from './metrics';
import type { QueueInspector } from './queue-inspector';

/** Latency buckets (seconds) from a cache hit to a slow provider call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A scrape reads each source once, however many gauges it feeds; results older than this are read again. */
const SNAPSHOT_MS = 1000;

/**
 * The metrics every process has, counted by the platform itself: HTTP and RPC latency, event
 * deliveries, the outbox and the queues. The outbox gauges are computed when scraped (collect
 * callbacks); the queue depths are refreshed in the background (watchQueues).
 */
export class PlatformMetrics {
  readonly http: Histogram<'method' | 'route' | 'status'>;
  readonly rpcClient: Histogram<'pattern' | 'outcome'>;
  readonly rpcServer: Histogram<'pattern' | 'outcome'>;
  readonly deliveries: Counter<'event' | 'outcome'>;
  readonly handling: Histogram<'event'>;
  readonly published: Counter<'event'>;

  constructor(readonly metrics: Metrics) {
    this.http = metrics.histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route template (not the raw path), method and status code; "*" is a request no route matched (static files, the SPA, not found) and "/webhooks/offerwalls/*" the callbacks the gateway streams on.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
    });
    this.rpcClient = metrics.histogram({
      name: 'rpc_client_duration_seconds',
      help: 'RPC calls this process made, by pattern, from send to answer; outcome is ok, an AppError code, or timeout/unavailable.',
      labelNames: ['pattern', 'outcome'],
      buckets: LATENCY_BUCKETS,
    });
    this.rpcServer = metrics.histogram({
      name: 'rpc_server_duration_seconds',
      help: 'RPC requests this service answered, by pattern, from receipt to reply; outcome is ok or an AppError code.',
      labelNames: ['pattern', 'outcome'],
      buckets: LATENCY_BUCKETS,
    });
    this.deliveries = metrics.counter({
      name: 'event_consumer_deliveries_total',
      help: 'Event deliveries taken from this service\'s queue, by event type and outcome: applied, duplicate (already applied: skipped by the inbox), failed (nacked for a retry or the dead-letter queue), unreadable, unhandled.',
      labelNames: ['event', 'outcome'],
    });
    this.handling = metrics.histogram({
      name: 'event_consumer_duration_seconds',
      help: 'Time to apply one event delivery, inbox and commit included, by event type.',
      labelNames: ['event'],
      buckets: LATENCY_BUCKETS,
    });
    this.published = metrics.counter({
      name: 'outbox_published_events_total',
      help: 'Events the outbox relay of this process published and the broker confirmed, by event type.',
      labelNames: ['event'],
    });
  }

  /** RPC outcome label: `ok`, `timeout` (the caller stopped waiting), or the AppError code (a small fixed set). */
  static outcome(err: unknown): string {
    if (err === undefined) return 'ok';
    const e = err as { code?: unknown; reason?: unknown };
    if (e?.reason === 'rpc_timeout') return 'timeout';
    return typeof e?.code === 'string' ? e.code : 'internal';
  }

  /** Backlog, age of the oldest pending event (parked ones excluded) and parked count of the service's outbox. */
  watchOutbox(dataSource: DataSource): void {
    // Both counts use the partial indexes (outbox_events_due, outbox_events_parked): published rows cost nothing.
    const read = snapshot(async () => {
      const [row]: Array<{ pending: number; oldest: number | null; parked: number }> = await dataSource.query(
        `SELECT (SELECT count(*)::int FROM outbox_events WHERE published_at IS NULL AND parked_at IS NULL) AS pending,
                (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM outbox_events WHERE published_at IS NULL AND parked_at IS NULL) AS oldest,
                (SELECT count(*)::int FROM outbox_events WHERE parked_at IS NOT NULL) AS parked`,
      );
      return row;
    });
    const gauge = (name: string, help: string, pick: (r: { pending: number; oldest: number | null; parked: number }) => number) =>
      this.metrics.gauge({
        name,
        help,
        async collect(this: Gauge) {
          const r = await read().catch(() => undefined);
          // Unknown (database down): no sample rather than a false 0.
          if (r) this.set(pick(r));
          else this.reset();
        },
      });
    gauge('outbox_pending_events', 'Events in the outbox not yet confirmed by the broker (parked ones excluded).', (r) => r.pending);
    gauge('outbox_oldest_pending_age_seconds', 'Age of the oldest event waiting in the outbox (parked ones excluded); 0 when none waits.', (r) => r.oldest ?? 0);
    gauge('outbox_parked_events', 'Events set aside after OUTBOX_MAX_ATTEMPTS tries with no queue bound (docs/architecture.md, "Parked events").', (r) => r.parked);
  }

  /**
   * Messages waiting in the consumer's queue (its lag) and in its dead-letter queue. The depths are
   * read from the broker in the background every `refreshMs`, never during a scrape: a scrape reads
   * the last result, so it answers at once whatever the broker does, and scrapes (however many
   * Prometheus replicas send) make no broker calls. Returns the function that stops the refresh.
   */
  watchQueues(inspector: QueueInspector, queues: () => { queue: string; deadLetterQueue: string } | undefined, refreshMs: number): () => void {
    let last: { queue: string; deadLetterQueue: string; lag?: number; dead?: number } | undefined;
    let reading: Promise<void> | undefined;
    const refresh = () => {
      reading ??= (async () => {
        const q = queues();
        if (!q) {
          last = undefined;
          return;
        }
        const [lag, dead] = await Promise.all([inspector.depth(q.queue), inspector.depth(q.deadLetterQueue)]);
        // Unknown (broker down, queue missing): no sample rather than a stale or false one.
        last = { ...q, lag, dead };
      })()
        .catch(() => {
          last = undefined;
        })
        .finally(() => {
          reading = undefined;
        });
    };
    const timer = setInterval(refresh, refreshMs);
    timer.unref();
    refresh();
    this.metrics.gauge({
      name: 'event_consumer_lag_messages',
      help: 'Messages ready in the service\'s event queue, not yet delivered to a consumer (every replica reports the same shared queue); read from the broker every METRICS_QUEUE_REFRESH_MS.',
      labelNames: ['queue'],
      collect(this: Gauge<'queue'>) {
        this.reset();
        if (last?.lag !== undefined) this.set({ queue: last.queue }, last.lag);
      },
    });
    this.metrics.gauge({
      name: 'event_consumer_dead_letter_messages',
      help: 'Messages in the service\'s dead-letter queue: events that failed EVENT_DELIVERY_LIMIT times (docs/runbook.md); read from the broker every METRICS_QUEUE_REFRESH_MS.',
      labelNames: ['queue'],
      collect(this: Gauge<'queue'>) {
        this.reset();
        if (last?.dead !== undefined) this.set({ queue: last.deadLetterQueue }, last.dead);
      },
    });
    return () => clearInterval(timer);
  }
}

/** One read shared by the gauges of a scrape (they are collected together), fresh for the next one. */
export function snapshot<T>(read: () => Promise<T>, maxAgeMs = SNAPSHOT_MS): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > maxAgeMs) last = { at: now, value: read() };
    return last.value;
  };
}
