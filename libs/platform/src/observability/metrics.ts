import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Metric, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one process, served at `/metrics` on its HTTP port (see
 * docs/observability.md). One registry per service rather than prom-client's global one: the test
 * system runs every service in one process, and each must answer with its own series. Every
 * series carries the label `service`.
 *
 * Services define their domain metrics through it, once (a second definition of the same name
 * answers the first one, so a provider may define its counters in its constructor):
 *
 *   this.outcomes = metrics.counter({ name: 'postback_outcomes_total', help: '…', labelNames: ['wall', 'outcome'] });
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(readonly service: string, opts: { processMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    // CPU, memory, event-loop lag, GC, handles: prom-client's process defaults, collected once per
    // process and shown by every registry of it (labels are applied when a registry renders).
    if (opts.processMetrics !== false) for (const metric of processMetrics().getMetricsAsArray()) this.registry.registerMetric(metric as unknown as Metric);
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return this.define(config.name, () => new Counter({ ...config, registers: [this.registry] }));
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return this.define(config.name, () => new Gauge({ ...config, registers: [this.registry] }));
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return this.define(config.name, () => new Histogram({ ...config, registers: [this.registry] }));
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private define<M extends Metric>(name: string, create: () => M): M {
    return (this.registry.getSingleMetric(name) as M | undefined) ?? create();
  }
}

let processDefaults: Registry | undefined;

/**
 * The process defaults, made once: each set starts an event-loop monitor and a GC observer that
 * are never stopped, and a test process starts and restarts many services. Under Jest "once" is
 * once per test file, each with its own copy of this module; jest.config.js says what that costs.
 */
function processMetrics(): Registry {
  if (!processDefaults) {
    processDefaults = new Registry();
    // The event-loop monitor samples every 100 ms, not prom-client's default 10 ms: each sample is
    // a timer that wakes the process, and at 10 ms these defaults alone are most of what an idle
    // service costs (bench/idle.bench.mjs measures it). A stall of 100 ms or more still always
    // delays a sample.
    collectDefaultMetrics({ register: processDefaults, eventLoopMonitoringPrecision: 100 });
  }
  return processDefaults;
}

/** Seconds since `start` (from `process.hrtime.bigint()`), for histograms in base units. */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
export type { Counter, Gauge, Histogram } from 'prom-client';
