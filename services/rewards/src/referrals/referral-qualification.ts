import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { REFERRAL_QUALIFYING_POINTS } from '@esim/contracts';

/**
 * Which of the users whose balance a transaction changed are referred friends that just
 * qualified: a pending referral, and earned points that became spendable reaching
 * REFERRAL_QUALIFYING_POINTS. Earned means credits on the posted layer (an offer-wall credit
 * spendable at once, a held credit's release, a claim credit) less the reversals that took
 * spendable points back; the sign-up bonus, referral bonuses and held points do not count. Asked
 * by BalanceAnnouncements in every transaction that changes balances, so the first one that makes
 * the points spendable announces it; the lookup is by the referrals' key, and the sum runs only for
 * a friend still pending.
 */
@Injectable()
export class ReferralQualification {
  async due(m: EntityManager, userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows: Array<{ friend_id: string }> = await m.query(
      `SELECT r.friend_id FROM referrals r JOIN ledger_accounts a ON a.user_id = r.friend_id
        WHERE r.friend_id = ANY($1::uuid[]) AND r.status = 'pending'
          AND (SELECT COALESCE(sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
                WHERE e.account_id = a.id AND e.layer = 'posted'
                  AND t.kind IN ('offerwall_credit', 'hold_release', 'claim_credit', 'offerwall_reversal')) >= $2`,
      [userIds, REFERRAL_QUALIFYING_POINTS],
    );
    return rows.map((r) => r.friend_id);
  }
}
