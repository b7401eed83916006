import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource, In } from 'typeorm';
import { PROVISIONING_SETTINGS, ProvisioningSettings } from './provisioning-settings';
import { Provisioning } from './provisioning.entity';
import { ProvisioningRunner } from './provisioning-runner';

/** Provisionings one replica works on at once. */
const MAX_IN_FLIGHT = 8;

/**
 * Finds provisionings due and hands each to the runner: new ones (a redemption just reserved, a
 * gift just claimed), retries after a transient failure, and stuck ones — claimed by a worker that
 * died (a crash, a kill, a deploy) before recording an outcome. Claiming is one UPDATE … SKIP
 * LOCKED that takes a lease, so replicas never work on the same one at once; a stuck one is
 * claimed again when its lease runs out, and the runner then asks the provider by our reference
 * before doing anything (exactly once, whatever crashed in between).
 */
@Injectable()
export class ProvisioningSweeper implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly log = new Logger('ProvisioningSweeper');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly runner: ProvisioningRunner,
    @Inject(PROVISIONING_SETTINGS) private readonly settings: ProvisioningSettings,
    private readonly http: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.wake();
  }

  /**
   * Stops claiming at the first shutdown hook, before the HTTP server goes away, so an attempt cut
   * off by the shutdown is not mistaken for a provider failure.
   */
  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.runner.stop();
  }

  /**
   * Attempts under way may finish within a short grace period, or are left to the sweeper of the
   * next start (which asks the provider what happened).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.onModuleDestroy();
    await this.sweeping;
    await Promise.race([Promise.allSettled([...this.inFlight.values()]), new Promise((r) => setTimeout(r, 2_000).unref())]);
  }

  /** Asks for a pass soon; calls while one runs coalesce into one more pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.sweeping) {
      this.again = true;
      return;
    }
    this.sweeping = this.sweep()
      .catch((err: unknown) => this.log.warn(`sweep failed, will retry: ${(err as Error).message}`))
      .finally(() => {
        this.sweeping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Work starts once the service serves HTTP (the bootstrap hooks run before it listens): a
   * service that is not up yet starts no provider call.
   */
  private serving(): boolean {
    const server = this.http.httpAdapter?.getHttpServer() as { listening?: boolean } | undefined;
    return server?.listening === true;
  }

  /** Wakes the sweeper once the caller's transaction has had time to commit (an event handler cannot wait for it). */
  wakeSoon(): void {
    setTimeout(() => this.wake(), 50).unref();
  }

  private async sweep(): Promise<void> {
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    if (room <= 0 || this.stopped || !this.serving()) return;
    // An UPDATE … RETURNING answers [rows, count] through TypeORM.
    const [claimed]: [Array<{ id: string }>, number] = await this.db.query(
      `UPDATE provisionings SET status = 'in_progress', attempts = attempts + 1,
              lease_until = now() + make_interval(secs => $1::double precision / 1000)
        WHERE id IN (SELECT id FROM provisionings
                      WHERE status IN ('pending', 'in_progress') AND lease_until <= now() AND NOT (id = ANY($3::uuid[]))
                      ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [this.settings.leaseMs, room, [...this.inFlight.keys()]],
    );
    if (claimed.length === 0) return;
    const rows = await this.db.manager.findBy(Provisioning, { id: In(claimed.map((c) => c.id)) });
    for (const p of rows) {
      if (p.attempts > 1) this.log.warn(`provisioning ${p.id} (redemption ${p.redemptionId}): attempt ${p.attempts}, picking it up again`);
      const run = this.runner
        .run(p)
        .catch((err: unknown) => this.log.error(`provisioning ${p.id}: ${(err as Error).message}; it stays due for the next sweep`))
        .finally(() => {
          this.inFlight.delete(p.id);
          this.wake();
        });
      this.inFlight.set(p.id, run);
    }
  }
}
