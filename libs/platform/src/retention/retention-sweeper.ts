import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * One retention rule of a service: a statement that deletes (or anonymises) at most `$1` rows
 * older than `$2` (a Postgres interval such as '30 days' or '7 years') and answers them as its row
 * count (an UPDATE or DELETE), or as the rows it returns (an INSERT ... RETURNING, such as the
 * ledger's carried-forward balances). Run again, it finds nothing more to do, so it is idempotent.
 */
export interface RetentionJob {
  /** Unique in the service: names its lock and its log line. */
  name: string;
  /**
   * Jobs that name the same lock never run at once, on any replica: for jobs that depend on each
   * other's work (rewards deletes the records that name ledger transfers, then folds those transfers).
   */
  lock?: string;
  sql: string;
  after: string;
}

/** Rows one statement of a job touches at most: each batch is short, the job loops until done. */
const BATCH = 1000;

/**
 * TypeORM answers an UPDATE or DELETE as `[rows, rowCount]` and anything else as its rows: the
 * count, or how many rows the statement returned.
 */
function touched(result: unknown): number {
  if (!Array.isArray(result)) return 0;
  return typeof result[1] === 'number' && Array.isArray(result[0]) ? result[1] : result.length;
}

/**
 * Runs a service's retention jobs (docs/accounts.md, "Retention") every `everyMs` on every
 * replica; each job runs in one transaction under a transaction-level advisory lock named for the
 * service's schema and the job, taken with `pg_try_advisory_xact_lock`: a replica that finds it
 * taken skips the job this round, so however many replicas run, each job runs once at a time, and
 * the lock ends with the transaction even when the process dies.
 */
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Retention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly lockPrefix: string,
    private readonly jobs: RetentionJob[],
    private readonly everyMs: number,
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  start(): void {
    if (this.timer || this.jobs.length === 0) return;
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
    this.timer.unref();
    void this.sweep();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Runs every job once; answers, per job, the rows it touched, or null where another replica held it. */
  async sweep(): Promise<Record<string, number | null>> {
    const done: Record<string, number | null> = {};
    const work = (async () => {
      for (const job of this.jobs) done[job.name] = await this.run(job).catch((err: Error) => {
        this.log.warn(`retention job ${job.name} failed: ${err.message}`);
        return null;
      });
    })();
    this.running = work;
    await work;
    return done;
  }

  /** One job, in one transaction under its lock: null when another replica holds it. */
  async run(job: RetentionJob): Promise<number | null> {
    return this.dataSource.transaction(async (m) => {
      const [{ locked }] = await m.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [`${this.lockPrefix}:retention:${job.lock ?? job.name}`]);
      if (!locked) return null;
      let total = 0;
      for (;;) {
        const done = touched(await m.query(job.sql, [BATCH, job.after]));
        total += done;
        if (done < BATCH) break;
      }
      if (total > 0) this.log.log(`retention job ${job.name}: ${total} row(s) past ${job.after}`);
      return total;
    });
  }
}
