/**
 * Group commit: concurrent writers share one database transaction instead of paying for one
 * each (round trips, a WAL flush per commit). `submit` queues an item; whenever fewer than
 * `concurrency` batches are being written, everything queued so far (up to `maxBatch`) goes to
 * `write` together. Nothing waits on a timer: alone, an item is written at once; under load,
 * batches grow by themselves while the previous ones commit.
 *
 * `write` answers one result per item, in order. When a batch fails, each of its items is written
 * again on its own, so one bad item fails alone and the others still commit.
 */
export class GroupCommit<I, O> {
  private readonly queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly opts: {
      maxBatch: number;
      concurrency: number;
      /** With `maxWeight`: a batch's items weigh at most `maxWeight` together (a heavier item goes alone). */
      weightOf?: (item: I) => number;
      maxWeight?: number;
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
    if (this.scheduled || this.running >= this.opts.concurrency || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.running >= this.opts.concurrency || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.batchLength());
    this.running++;
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
