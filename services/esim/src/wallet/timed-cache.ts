import type { LineUsageSettings } from './line-usage-settings';

export interface Timed<V> {
  value: V;
  /** When the value was loaded (ms since the epoch). */
  at: number;
}

/**
 * A small in-process cache of slow provider reads, per key: an answer is reused while younger
 * than `cacheMs` (`refreshFloorMs` when the caller asks for a refresh), concurrent misses share
 * one load, and when a load fails for a passing reason (`transient`) an answer up to `staleMs` old
 * is served instead of the error; a definite answer (the line is gone) is never hidden.
 * Per process on purpose: like the KeepGo catalogue cache, losing it costs one provider call.
 */
export class TimedCache<V> {
  private readonly entries = new Map<string, Timed<V>>();
  private readonly loading = new Map<string, Promise<Timed<V>>>();

  constructor(
    private readonly settings: Pick<LineUsageSettings, 'cacheMs' | 'refreshFloorMs' | 'maxEntries' | 'staleMs'>,
    private readonly transient: (err: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>, opts: { refresh?: boolean } = {}): Promise<Timed<V>> {
    const cached = this.entries.get(key);
    const maxAge = opts.refresh ? this.settings.refreshFloorMs : this.settings.cacheMs;
    if (cached && this.now() - cached.at < maxAge) return Promise.resolve(cached);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const started = this.load(key, load, cached).finally(() => this.loading.delete(key));
    this.loading.set(key, started);
    return started;
  }

  private async load(key: string, load: () => Promise<V>, previous: Timed<V> | undefined): Promise<Timed<V>> {
    try {
      const fresh = { value: await load(), at: this.now() };
      this.entries.delete(key);
      this.entries.set(key, fresh);
      while (this.entries.size > this.settings.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      return fresh;
    } catch (err) {
      if (previous && this.transient(err) && this.now() - previous.at < this.settings.staleMs) return previous;
      throw err;
    }
  }
}
