import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { GiftSummary, GiftSummaryChanged } from '@esim/contracts';
import { Tx } from '@esim/platform';

interface SummaryRow {
  user_id: string;
  total: number;
  iccid: string | null;
  plan_tier: string | null;
  last_at: Date | null;
  delivered: string;
}

export const EMPTY_GIFT_SUMMARY: GiftSummary = { dataGiftedGB: 0, iccid: null, planTierLastChosen: null, lastGiftedAt: null };

/**
 * The user row's gift totals (delivered gifts only) and their version: the number of the user's
 * delivered gifts. A gift never stops being delivered, so in one snapshot a larger count is a
 * later summary; `announce` counts under a per-user transaction lock taken after the delivery was
 * written, so a delivery committed before is always counted (the lock is the transaction's last:
 * nothing waits while holding it).
 */
@Injectable()
export class GiftSummaryAnnouncements {
  /** Publishes GiftSummaryChanged for the user, in the transaction that delivered. */
  async announce(tx: Tx, userId: string): Promise<void> {
    await tx.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('gift-summary:' || $1, 0))`, [userId]);
    const { summary, version } = (await this.read(tx.manager, [userId])).get(userId) ?? { summary: EMPTY_GIFT_SUMMARY, version: 0 };
    tx.publish(GiftSummaryChanged, { userId, summary, version, changedAt: new Date().toISOString() });
  }

  /** Summaries and versions in one statement; users without a delivered gift are absent. */
  async read(m: EntityManager, userIds: string[]): Promise<Map<string, { summary: GiftSummary; version: number }>> {
    const rows: SummaryRow[] = await m.query(
      `SELECT user_id,
              COALESCE(SUM(amount_gb), 0)::int AS total,
              (array_agg(iccid ORDER BY delivered_at DESC))[1] AS iccid,
              (array_agg(plan_tier ORDER BY delivered_at DESC))[1] AS plan_tier,
              MAX(delivered_at) AS last_at,
              count(*)::text AS delivered
         FROM data_gifts WHERE user_id = ANY($1) AND status = 'delivered'
        GROUP BY user_id`,
      [userIds],
    );
    return new Map(
      rows.map((row) => [
        row.user_id,
        {
          summary: {
            dataGiftedGB: row.total,
            iccid: row.iccid,
            planTierLastChosen: row.plan_tier,
            lastGiftedAt: row.last_at ? new Date(row.last_at).toISOString() : null,
          },
          version: Number(row.delivered),
        },
      ]),
    );
  }
}
