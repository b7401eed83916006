import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CONFIG, UnitOfWork } from '@esim/platform';
import type { RewardsConfig } from '../config';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';

/** Held credits released per transaction: a backlog (after an outage) goes in passes of this many. */
const RELEASES_PER_PASS = 500;

/**
 * Makes held offer-wall credits spendable when they are due (docs/earning.md, "Held credits").
 * Every replica runs a pass every CREDIT_RELEASE_INTERVAL_MS; a pass takes a transaction-scoped
 * advisory lock, so one replica releases at a time and the others skip their turn. That lock only
 * spares work: the ledger makes each release happen once whatever runs it (one `hold_release` per
 * credit, by its unique reference), and a release, its removal from `ledger_holds` and its
 * BalanceChanged commit together, so a replica killed mid-pass leaves nothing half done: its
 * transaction rolls back and the lock goes with its connection, and a later pass (its own after a
 * restart, or another replica's) releases the same credits.
 */
@Injectable()
export class HeldCreditReleases implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('HeldCreditReleases');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: Ledger,
    private readonly balances: BalanceAnnouncements,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.releaseDue(), this.config.CREDIT_RELEASE_INTERVAL_MS);
    void this.releaseDue();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Releases what is due, pass after pass until none is left; answers how many credits it released. */
  releaseDue(): Promise<number> {
    this.running ??= this.passes()
      .catch((err: unknown) => {
        this.log.warn(`releasing held credits failed, will retry: ${(err as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async passes(): Promise<number> {
    let total = 0;
    for (;;) {
      const released = await this.pass();
      if (released === null) return total;
      total += released;
      if (released < RELEASES_PER_PASS) return total;
    }
  }

  /** One transaction: answers the credits released, or null when another replica holds the lock. */
  private pass(): Promise<number | null> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const [{ locked }] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtext('rewards:held-credit-releases')) AS locked`);
      if (!locked) return null;
      const due: Array<{ user_id: string; account_id: string }> = await m.query(
        `SELECT DISTINCT a.user_id, a.id AS account_id
           FROM (SELECT account_id FROM ledger_holds WHERE available_at <= now() ORDER BY available_at LIMIT $1) h
           JOIN ledger_accounts a ON a.id = h.account_id`,
        [RELEASES_PER_PASS],
      );
      if (due.length === 0) return 0;
      // The account rows first, in account order, as every writer of a balance takes them
      // (BalanceAnnouncements): a reversal of one of these credits then waits for this pass or
      // this pass for it, and the ledger books whichever comes second accordingly.
      await this.balances.lock(m, due.map((d) => d.user_id));
      const released = await this.ledger.releaseDue(m, due.map((d) => d.account_id), RELEASES_PER_PASS);
      const accounts = new Set(released.map((r) => r.accountId));
      await this.balances.announce(tx, due.filter((d) => accounts.has(d.account_id)).map((d) => d.user_id));
      if (released.length > 0) this.log.log(`released ${released.length} held credit(s)`);
      return released.length;
    });
  }
}
