import { BrokenCircuitError, CircuitBreakerPolicy, CircuitState, circuitBreaker, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { envInt } from '../config/load-config';
import { Metrics, secondsSince } from './metrics';

/** Latency buckets (seconds) of a provider call: an SMTP hand-over or a Stripe call up to a KeepGo timeout with retries. */
const PROVIDER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40];

/** `provider_circuit_state`: what each value means (docs/observability.md). */
const STATE_VALUE: Record<CircuitState, number> = {
  [CircuitState.Closed]: 0,
  [CircuitState.HalfOpen]: 1,
  [CircuitState.Open]: 2,
  [CircuitState.Isolated]: 2,
};

/**
 * How one call ended, the `outcome` label:
 * - `ok`: the provider did it;
 * - `refused`: the provider answered and said no (a bad card, an unknown line, a rejected address):
 *   it is up, so the breaker does not count it;
 * - `failed`: no answer, a timeout, a 5xx or 429: the provider is unwell, the breaker counts it;
 * - `rejected`: the breaker is open, the call was never sent.
 */
export type ProviderCallOutcome = 'ok' | 'refused' | 'failed' | 'rejected';

export interface ProviderBreakerSettings {
  /** Consecutive failed calls that open the breaker. */
  failures: number;
  /** How long it stays open before one probe call is let through (half-open). */
  halfOpenAfterMs: number;
}

/**
 * Thrown instead of calling the provider while its breaker is open: the request was NOT sent, so
 * the caller may safely try again later. (A call made while the half-open probe is under way waits
 * for the probe: it is sent if the probe closes the breaker, refused with this if it opens it again.)
 */
export class ProviderCircuitOpenError extends Error {
  readonly notSent = true;

  constructor(
    readonly provider: string,
    readonly operation: string,
  ) {
    super(`${provider} is failing: calls are paused by its circuit breaker (${operation} not sent)`);
    this.name = 'ProviderCircuitOpenError';
  }
}

/**
 * The two settings of a provider's breaker, for a service's config.ts (`KEEPGO_BREAKER_FAILURES`…).
 * Defaults: 5 consecutive failures is more than one call's bounded retries can produce from a
 * single slow request, so one unlucky call never opens it; 30 s open is short beside an outage and
 * long beside the retry delays of the queues behind these calls (emails, the provisioning saga).
 */
export function providerBreakerSettings(provider: string, defaults: { failures?: number; halfOpenAfterMs?: number } = {}) {
  return {
    failures: envInt(defaults.failures ?? 5, 1).describe(
      `Consecutive failed ${provider} calls (unreachable, timed out, or answered that it failed: not a refusal) that open its circuit breaker; while open, calls fail at once without being sent (docs/observability.md, "Provider calls").`,
    ),
    halfOpenAfterMs: envInt(defaults.halfOpenAfterMs ?? 30_000, 100).describe(
      `How long the ${provider} circuit breaker stays open before one probe call is let through; a success closes it, a failure opens it again.`,
    ),
  };
}

/**
 * Every outbound call to one provider goes through here: it is timed and counted by operation and
 * outcome, and guarded by a circuit breaker (cockatiel) that, after `failures` consecutive
 * failures, refuses calls without sending them for `halfOpenAfterMs`, then lets one probe through.
 * The breaker only ever refuses before a call is sent, never retries one: what a caller does after
 * a failure (retry, ask the provider, hand it to a person) stays the caller's decision.
 *
 * Each replica keeps its own breaker: the metrics say per replica what it saw.
 */
export class ProviderCalls {
  private readonly breaker: CircuitBreakerPolicy;
  private readonly duration: Histogram<'provider' | 'operation' | 'outcome'>;
  private readonly total: Counter<'provider' | 'operation' | 'outcome'>;
  private readonly state: Gauge<'provider'>;

  constructor(
    metrics: Metrics,
    readonly provider: string,
    settings: ProviderBreakerSettings,
    /**
     * Whether a failure says the provider is unwell (counted by the breaker), rather than a refusal
     * it answered (which neither counts nor resets the count, and as a probe's answer closes the breaker).
     */
    private readonly isFailure: (err: unknown) => boolean,
  ) {
    this.duration = metrics.histogram({
      name: 'provider_request_duration_seconds',
      help: "Outbound provider calls (keepgo, stripe, smtp) by operation and outcome (ok, refused, failed, rejected: not sent, breaker open), from the call to its answer, the client's own retries included.",
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: PROVIDER_BUCKETS,
    });
    this.total = metrics.counter({
      name: 'provider_requests_total',
      help: 'Outbound provider calls (keepgo, stripe, smtp) by operation and outcome: ok, refused (the provider answered no), failed (no answer, timeout, 5xx, 429), rejected (not sent: breaker open).',
      labelNames: ['provider', 'operation', 'outcome'],
    });
    this.state = metrics.gauge({
      name: 'provider_circuit_state',
      help: 'The circuit breaker of each provider in this replica: 0 closed (calls go through), 1 half-open (one probe call under way), 2 open (calls fail at once, unsent).',
      labelNames: ['provider'],
    });
    this.breaker = circuitBreaker(
      handleWhen((err) => this.isFailure(err)),
      { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.failures) },
    );
    this.state.set({ provider }, 0);
    this.breaker.onStateChange((state) => this.state.set({ provider }, STATE_VALUE[state]));
  }

  /** `closed`, `half-open` or `open`. */
  get circuit(): 'closed' | 'half-open' | 'open' {
    const s = this.breaker.state;
    return s === CircuitState.Closed ? 'closed' : s === CircuitState.HalfOpen ? 'half-open' : 'open';
  }

  /**
   * Runs one call to the provider. `operation` is a label of a small fixed set (a route template,
   * never an id). Throws ProviderCircuitOpenError, unsent, while the breaker is open.
   */
  async call<T>(operation: string, send: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome: ProviderCallOutcome = 'ok';
    try {
      return await this.breaker.execute(() => send());
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        outcome = 'rejected';
        throw new ProviderCircuitOpenError(this.provider, operation);
      }
      outcome = this.isFailure(err) ? 'failed' : 'refused';
      throw err;
    } finally {
      const labels = { provider: this.provider, operation, outcome };
      this.total.inc(labels);
      this.duration.observe(labels, secondsSince(started));
    }
  }
}
