import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONFIG, Counter, Metrics } from '@esim/platform';
import type { WebhooksConfig } from '../config';

/** Rows one DELETE removes at most: short statements, so the prune never holds many row locks. */
const PRUNE_BATCH = 5_000;

/**
 * Refused deliveries older than REFUSED_DELIVERY_RETENTION_HOURS: never accepted (no action), with
 * a `rejected_*` outcome. The partial index webhook_transactions_refused_by_age (migration
 * 1735900000000-refused-deliveries) holds exactly these rows by age. SKIP LOCKED: two replicas
 * pruning at once take different rows and never wait for each other; deleting is idempotent.
 */
const PRUNE = `
DELETE FROM webhook_transactions WHERE id IN (
  SELECT id FROM webhook_transactions
   WHERE action IS NULL AND status LIKE 'rejected%' AND created_at < now() - make_interval(hours => $1)
   ORDER BY created_at
   LIMIT $2
   FOR UPDATE SKIP LOCKED)`;

/**
 * Removes refused deliveries once their retention window has passed (docs/earning.md,
 * "Refused deliveries"), every REFUSED_DELIVERY_PRUNE_INTERVAL_MS, on every replica.
 */
@Injectable()
export class RefusedDeliveriesPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('RefusedDeliveriesPruner');
  private readonly pruned: Counter<never>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: DataSource,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    metrics: Metrics,
  ) {
    this.pruned = metrics.counter({
      name: 'refused_deliveries_pruned_total',
      help: 'Refused deliveries deleted after REFUSED_DELIVERY_RETENTION_HOURS.',
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune().catch((err: Error) => this.log.error(`prune failed: ${err.message}`)), this.config.REFUSED_DELIVERY_PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Deletes every refused delivery past the window, a batch at a time; answers how many. */
  prune(): Promise<number> {
    // One prune at a time in a replica; another replica's runs beside it on other rows.
    this.running ??= this.pruneAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = (await this.db.query(PRUNE, [this.config.REFUSED_DELIVERY_RETENTION_HOURS, PRUNE_BATCH])) as [unknown, number];
      total += count;
      this.pruned.inc(count);
      if (count < PRUNE_BATCH) break;
    }
    if (total > 0) this.log.log(`pruned ${total} refused deliveries older than ${this.config.REFUSED_DELIVERY_RETENTION_HOURS} h`);
    return total;
  }
}
