import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AccountStanding, RedemptionStandingState, RiskReason } from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import type { RewardsConfig } from '../config';

interface RiskRow {
  user_id: string;
  disposable_email: boolean | null;
  linked_accounts: number | null;
  control: 'paused' | 'review' | 'cleared' | null;
  credits: number;
  reversals: number;
}

/**
 * The risk rules (docs/earning.md, "Risk rules"): what the fraud signals and the admins' controls
 * do to an account. They read identity's signals (kept from AccountSignalsChanged in
 * `account_risk`), the account's reversal rate (this ledger) and the admins' latest control; never
 * a credit's size (the hold threshold is for that). Three effects, each with its settings:
 * - longer holds for a risky account (disposable email, a linked account, or a reversal rate at
 *   RISK_REVERSAL_RATE_HOLD);
 * - an admin's review before each redemption (a link, or a reversal rate at RISK_REVERSAL_RATE_REVIEW,
 *   or an admin's `review`);
 * - paused redemptions (a reversal rate at RISK_REVERSAL_RATE_PAUSE, or an admin's `paused`).
 * An admin's lift (`cleared`) sets the rules' own pause and review aside; longer holds stay, as
 * they only delay.
 */
@Injectable()
export class RiskRules {
  constructor(@Inject(CONFIG) private readonly config: RewardsConfig) {}

  /** Each user's standing; users the rules know nothing of are open. */
  async standings(m: EntityManager, userIds: string[]): Promise<AccountStanding[]> {
    const rows = await this.rows(m, userIds);
    return userIds.map((userId) => ({ userId, ...this.judge(rows.get(userId)) }));
  }

  async standing(m: EntityManager, userId: string): Promise<{ state: RedemptionStandingState; reasons: RiskReason[] }> {
    return this.judge((await this.rows(m, [userId])).get(userId));
  }

  /** The users among `userIds` whose credits are held longer. */
  async longerHolds(m: EntityManager, userIds: string[]): Promise<Set<string>> {
    const rows = await this.rows(m, userIds);
    return new Set([...rows.values()].filter((r) => r.disposable_email || (r.linked_accounts ?? 0) > 0 || this.rate(r) >= this.config.RISK_REVERSAL_RATE_HOLD).map((r) => r.user_id));
  }

  private judge(r: RiskRow | undefined): { state: RedemptionStandingState; reasons: RiskReason[] } {
    if (!r) return { state: 'open', reasons: [] };
    if (r.control === 'paused') return { state: 'paused', reasons: ['admin_paused'] };
    const rate = this.rate(r);
    const byRules = r.control !== 'cleared';
    if (byRules && rate >= this.config.RISK_REVERSAL_RATE_PAUSE) return { state: 'paused', reasons: ['reversal_rate'] };
    if (r.control === 'review') return { state: 'review', reasons: ['admin_review'] };
    const reasons: RiskReason[] = [];
    if (byRules && rate >= this.config.RISK_REVERSAL_RATE_REVIEW) reasons.push('reversal_rate');
    const links = this.config.RISK_REVIEW_LINKED_ACCOUNTS;
    if (byRules && links > 0 && (r.linked_accounts ?? 0) >= links) reasons.push('linked_accounts');
    return reasons.length ? { state: 'review', reasons } : { state: 'open', reasons: [] };
  }

  /** Reversed credits over credits; 0 below RISK_MIN_CREDITS (too few to say anything). */
  private rate(r: RiskRow): number {
    return r.credits >= this.config.RISK_MIN_CREDITS ? r.reversals / r.credits : 0;
  }

  private async rows(m: EntityManager, userIds: string[]): Promise<Map<string, RiskRow>> {
    if (userIds.length === 0) return new Map();
    const rows: RiskRow[] = await m.query(
      `SELECT u.user_id, r.disposable_email, r.linked_accounts, r.control,
              (SELECT count(*)::int FROM ledger_transfers t WHERE t.credit_account_id = a.id AND t.kind = 'offerwall_credit') AS credits,
              (SELECT count(*)::int FROM ledger_transfers t WHERE t.debit_account_id = a.id AND t.kind = 'offerwall_reversal') AS reversals
         FROM unnest($1::uuid[]) AS u (user_id)
         LEFT JOIN account_risk r ON r.user_id = u.user_id
         LEFT JOIN ledger_accounts a ON a.user_id = u.user_id`,
      [[...new Set(userIds)]],
    );
    return new Map(rows.map((r) => [r.user_id, r]));
  }
}
