import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { EsimProviderException } from './esim-provider.exception';
import { KEEPGO_SETTINGS, KeepGoSettings } from './keepgo-settings';

const RETRY_MS = 40;

/**
 * One operation at a time on a KeepGo line, across every esim replica: a Postgres session-level
 * advisory lock per ICCID, held for the whole read-modify-write of the line's notes and the
 * refill sent between them (keepgo-esim-provider.service.ts). Postgres keeps the lock while the
 * session lives and drops it when the session ends, so a replica that dies (a crash, a SIGKILL)
 * never leaves a line locked.
 *
 * The lock is tried every RETRY_MS rather than waited for in `pg_advisory_lock`, like the
 * migration lock (libs/platform/src/persistence/data-source.ts): a replica waiting for a busy line
 * holds no connection between tries, so only the holders (one per line being worked on) take a
 * connection from the pool, and none of them is inside a transaction. A line still busy after
 * KEEPGO_LINE_LOCK_WAIT_MS is a transient failure that sent nothing: the provisioning is tried
 * again later.
 */
@Injectable()
export class KeepGoLineLocks {
  /** The first key of the two-key advisory locks taken here ('kg'), so they never meet another lock's key. */
  static readonly LOCK_CLASS = 0x6b67;
  private readonly log = new Logger('KeepGo');

  constructor(
    private readonly db: DataSource,
    @Inject(KEEPGO_SETTINGS) private readonly settings: KeepGoSettings,
  ) {}

  async hold<T>(iccid: string, work: () => Promise<T>): Promise<T> {
    const runner = await this.acquire(iccid);
    let result: T;
    try {
      result = await work();
    } finally {
      await this.releaseLock(runner, iccid);
    }
    return result;
  }

  private async acquire(iccid: string): Promise<QueryRunner> {
    const deadline = Date.now() + this.settings.lineLockWaitMs;
    for (;;) {
      const runner = this.db.createQueryRunner();
      try {
        const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [KeepGoLineLocks.LOCK_CLASS, iccid]);
        if (locked) return runner;
      } catch (err) {
        await runner.release();
        throw new EsimProviderException('unavailable', `line ${iccid} could not be locked: ${(err as Error).message}`, { cause: err });
      }
      await runner.release();
      if (Date.now() >= deadline) {
        throw new EsimProviderException('unavailable', `line ${iccid} stayed busy with another operation for ${this.settings.lineLockWaitMs} ms`);
      }
      await sleep(RETRY_MS / 2 + Math.random() * RETRY_MS);
    }
  }

  /**
   * A connection whose unlock failed may still hold the lock: it is closed rather than handed back
   * to the pool, and Postgres drops the lock with the session.
   */
  private async releaseLock(runner: QueryRunner, iccid: string): Promise<void> {
    try {
      await runner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [KeepGoLineLocks.LOCK_CLASS, iccid]);
      await runner.release();
    } catch (err) {
      this.log.warn(`line ${iccid}: unlock failed (${(err as Error).message}); closing its connection to drop the lock`);
      // TypeORM hands an error on to pg-pool, which then closes that client instead of reusing it.
      await (runner as unknown as { releasePostgresConnection(err: unknown): Promise<void> }).releasePostgresConnection(err);
    }
  }
}
