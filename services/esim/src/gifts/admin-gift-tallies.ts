import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AdminGiftRecord, AdminGiftTally, REDEEMABLE_PLANS, RedeemablePlanTier } from '@esim/contracts';

export const EMPTY_ADMIN_GIFT_TALLY: AdminGiftTally = { giftsGrantedGB: 0, giftsClaimedGB: 0, giftsPendingGB: 0 };

interface TallyRow {
  user_id: string | null;
  granted: number;
  claimed: number;
  pending: number;
}

/**
 * Admin gifts as granted, claimed and pending, counted at their granted worth (`granted_gb`: a
 * claim for a smaller plan lowers `amount_gb` on delivery, and uses the whole gift). These change
 * the moment an admin gifts, unlike the delivered totals of GiftSummaryAnnouncements, which the
 * user row and the "data gifted" card showed alone (so a gift stayed invisible until claimed).
 * A cancelled gift counts nowhere.
 */
@Injectable()
export class AdminGiftTallies {
  private static readonly SUMS = `COALESCE(SUM(COALESCE(granted_gb, amount_gb)), 0)::int AS granted,
              COALESCE(SUM(COALESCE(granted_gb, amount_gb)) FILTER (WHERE status IN ('claimed', 'delivered')), 0)::int AS claimed,
              COALESCE(SUM(COALESCE(granted_gb, amount_gb)) FILTER (WHERE status = 'granted'), 0)::int AS pending`;

  /** Per user, in one statement; users without an admin gift are absent. */
  async forUsers(m: EntityManager, userIds: string[]): Promise<Map<string, AdminGiftTally>> {
    const rows: TallyRow[] = await m.query(
      `SELECT user_id, ${AdminGiftTallies.SUMS}
         FROM data_gifts WHERE user_id = ANY($1) AND source = 'admin' AND status <> 'cancelled'
        GROUP BY user_id`,
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id!, tallyOf(r)]));
  }

  /** Over every user (the admin stat cards). */
  async overall(m: EntityManager): Promise<AdminGiftTally> {
    const [row]: TallyRow[] = await m.query(`SELECT NULL AS user_id, ${AdminGiftTallies.SUMS} FROM data_gifts WHERE source = 'admin' AND status <> 'cancelled'`);
    return tallyOf(row);
  }

  /** One user's admin gifts, newest first, with where each stands. */
  async records(m: EntityManager, userId: string): Promise<AdminGiftRecord[]> {
    const rows: { id: string; granted_gb: number | null; amount_gb: number; plan_tier: string; status: string; created_at: Date; delivered_at: Date | null }[] = await m.query(
      `SELECT id, granted_gb, amount_gb, plan_tier, status, created_at, delivered_at
         FROM data_gifts WHERE user_id = $1 AND source = 'admin' AND status <> 'cancelled'
        ORDER BY created_at DESC, id LIMIT 200`,
      [userId],
    );
    return rows.map((r) => {
      const delivered = r.status === 'delivered';
      const grantedGB = r.granted_gb ?? r.amount_gb;
      return {
        giftId: r.id,
        amountGB: grantedGB,
        // The tier granted: a delivered gift's plan_tier is the plan it was claimed for.
        planTier: ((delivered ? REDEEMABLE_PLANS.find((p) => p.amountGB === grantedGB)?.tier : undefined) ?? r.plan_tier) as RedeemablePlanTier,
        state: delivered ? 'delivered' : r.status === 'claimed' ? 'claimed' : 'pending',
        grantedAt: new Date(r.created_at).toISOString(),
        deliveredGB: delivered ? r.amount_gb : null,
        deliveredAt: delivered && r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
      };
    });
  }
}

function tallyOf(row: TallyRow | undefined): AdminGiftTally {
  return row ? { giftsGrantedGB: row.granted, giftsClaimedGB: row.claimed, giftsPendingGB: row.pending } : EMPTY_ADMIN_GIFT_TALLY;
}
