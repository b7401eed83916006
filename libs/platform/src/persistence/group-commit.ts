/**
 * Group commit: concurrent writers share one database transaction instead of paying for one
 * each (round trips, a WAL flush per commit). `submit` queues an item; whenever fewer than
 * `concurrency` batches are being written, everything queued so far (up to `maxBatch`) goes to
 * `write` together. Alone, an item is written at once; under load, batches grow by themselves
 * while the previous ones commit, and with `spacingMs` a batch also waits until that long after
 * the previous one started (unless what is queued fills it), so that a steady stream is written
 * in fewer, larger batches.
 *
 * `write` answers one result per item, in order. When a batch fails, each of its items is written
 * again on its own, so one bad item fails alone and the others still commit.
 */
export class GroupCommit<I, O> {
  private readonly queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private running = 0;
  private scheduled = false;
  /** The pending timer of a batch held back by `spacingMs`. */
  private timer?: NodeJS.Timeout;
  private lastStart = -Infinity;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly opts: {
      maxBatch: number;
      concurrency: number;
      /** With `maxWeight`: a batch's items weigh at most `maxWeight` together (a heavier item goes alone). */
      weightOf?: (item: I) => number;
      maxWeight?: number;
      /**
       * At least this long between the starts of two batches, unless what is queued fills one:
       * under a steady stream, a batch holds what arrived in that time. After a quiet spell, an
       * item still goes at once.
       */
      spacingMs?: number;
    },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Items that arrive in the same turn of the event loop go in the same batch. */
  private schedule(): void {
    if (this.running >= this.opts.concurrency || this.queue.length === 0) return;
    if (this.scheduled) {
      // Held by the spacing: what fills a batch need not wait.
      if (!this.timer || !this.full()) return;
      clearTimeout(this.timer);
      this.timer = undefined;
      setImmediate(() => void this.flush());
      return;
    }
    this.scheduled = true;
    this.holdOrFlush();
  }

  /** Flushes now, or holds the batch until `spacingMs` after the previous one started. */
  private holdOrFlush(): void {
    const left = this.opts.spacingMs && !this.full() ? this.lastStart + this.opts.spacingMs - performance.now() : 0;
    if (left <= 0) {
      setImmediate(() => void this.flush());
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, left);
  }

  /** Whether what is queued fills a batch. */
  private full(): boolean {
    return this.queue.length >= this.opts.maxBatch || this.batchLength() < this.queue.length;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.running >= this.opts.concurrency || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.batchLength());
    this.running++;
    this.lastStart = performance.now();
    // Another batch may start beside this one with whatever arrives meanwhile.
    this.schedule();
    try {
      await this.writeAll(batch);
    } finally {
      this.running--;
      this.schedule();
    }
  }

  /** How many queued items the next batch takes: up to maxBatch, and up to maxWeight if items weigh. */
  private batchLength(): number {
    const { maxBatch, weightOf, maxWeight } = this.opts;
    if (!weightOf || maxWeight === undefined) return maxBatch;
    let weight = 0;
    let n = 0;
    while (n < Math.min(maxBatch, this.queue.length)) {
      weight += weightOf(this.queue[n].item);
      if (n > 0 && weight > maxWeight) break;
      n++;
    }
    return n;
  }

  private async writeAll(batch: typeof this.queue): Promise<void> {
    try {
      const results = await this.write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      for (const one of batch) await this.writeAll([one]);
    }
  }
}
