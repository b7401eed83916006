import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BalanceChanged, PENDING_RELEASES_SHOWN, PendingRelease, ReferralQualified } from '@esim/contracts';
import { PreparedStatement, Tx } from '@esim/platform';
import { ReferralQualification } from '../referrals/referral-qualification';

interface VersionedBalanceRow {
  user_id: string;
  points: string;
  version: string;
  held: string;
  release_points: number[] | null;
  release_at: Date[] | null;
}

/** Run for every batch of credits: prepared (PreparedStatement), planned once per connection. */
const LOCK_ACCOUNTS = new PreparedStatement('SELECT id FROM ledger_accounts WHERE user_id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE');
const READ_BALANCES = new PreparedStatement<VersionedBalanceRow>(
  `SELECT a.user_id, COALESCE(b.posted + b.pending, 0)::text AS points, COALESCE(b.entries, 0)::text AS version,
          COALESCE(b.held, 0)::text AS held, r.release_points, r.release_at
     FROM ledger_accounts a LEFT JOIN ledger_user_balances b ON b.account_id = a.id
     LEFT JOIN LATERAL (
       SELECT array_agg(h.amount::int ORDER BY h.available_at, h.credit_id) AS release_points,
              array_agg(h.available_at ORDER BY h.available_at, h.credit_id) AS release_at
         FROM (SELECT amount, available_at, credit_id FROM ledger_holds WHERE account_id = a.id
                ORDER BY available_at, credit_id LIMIT ${PENDING_RELEASES_SHOWN}) h
     ) r ON true
    WHERE a.user_id = ANY($1::uuid[])`,
);

/**
 * A user's available points and how many ledger entries their account holds (the version), with
 * their held points and next releases (read in the same statement, so under the same version).
 */
export interface VersionedBalance {
  userId: string;
  points: number;
  version: number;
  pendingPoints: number;
  pendingReleases: PendingRelease[];
}

/**
 * Tells the other services (the gateway's user view) each user's new balance, in the transaction
 * that changed it: BalanceChanged with the points and a version.
 *
 * The version is the number of ledger entries on the user's account (counted by the ledger in its
 * balance row, `ledger_user_balances.entries`, with the points). Entries are only ever added,
 * so in any one snapshot a larger count means a later state; inside a transaction that holds the
 * account's row lock (taken here, released at commit), every earlier change of the account is
 * committed and visible, so a later transaction always counts more. A sequence number would not
 * do: a transfer's `seq` is drawn when its row is formed, before the lock is waited for, so a
 * later balance could carry a smaller one.
 *
 * Lock before writing: `lock` takes the rows in account order before the transaction's first
 * ledger write, so two transactions crediting overlapping users queue instead of deadlocking (a
 * lock taken after the write would upgrade the write's key-share lock while a reservation waits
 * on the same row). The account row comes before the balance row the ledger then updates, in
 * every writer (migration 1734400000000), so the balance row adds no lock order of its own. A
 * reservation needs no `lock`: the ledger's trigger locks the account before inserting it.
 */
@Injectable()
export class BalanceAnnouncements {
  /** Takes the users' account rows (those that exist) for the rest of the transaction, in account order. */
  async lock(m: EntityManager, userIds: Iterable<string>): Promise<void> {
    const users = [...new Set(userIds)];
    if (users.length === 0) return;
    await LOCK_ACCOUNTS.run(m, [users]);
  }

  /** Absent where only the ledger's own tables exist (its migration specs). */
  constructor(@Optional() private readonly referrals?: ReferralQualification) {}

  /**
   * Publishes BalanceChanged for each user (with an account), read under the account lock; and
   * ReferralQualified for a referred friend whose earned points this change made spendable enough
   * (rewards pays the bonuses in a transaction of its own: docs/earning.md, "Referrals").
   */
  async announce(tx: Tx, userIds: Iterable<string>): Promise<void> {
    const users = [...new Set(userIds)];
    if (users.length === 0) return;
    // Taken already when the caller locked first; then this is a no-op.
    await this.lock(tx.manager, users);
    const changedAt = new Date().toISOString();
    for (const b of await this.read(tx.manager, users)) tx.publish(BalanceChanged, { ...b, changedAt });
    for (const friendId of (await this.referrals?.due(tx.manager, users)) ?? []) tx.publish(ReferralQualified, { friendId, qualifiedAt: changedAt });
  }

  /**
   * Balances and versions in one statement (one snapshot); users without an account are absent.
   * Read from the balances the ledger keeps (migration 1734400000000): one row per account, not
   * all its entries; an account without entries has no row yet (0 points, version 0).
   */
  async read(m: EntityManager, userIds: string[]): Promise<VersionedBalance[]> {
    const rows = await READ_BALANCES.run(m, [userIds]);
    return rows.map((r) => ({
      userId: r.user_id,
      points: Number(r.points),
      version: Number(r.version),
      pendingPoints: Number(r.held),
      pendingReleases: (r.release_points ?? []).map((points, i) => ({ points, availableAt: r.release_at![i].toISOString() })),
    }));
  }
}
