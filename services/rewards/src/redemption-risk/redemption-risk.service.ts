import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  AccountControlAction,
  AccountSignalsChanged,
  AccountStanding,
  AdminRedemptionAppeal,
  AdminRedemptionReview,
  EventPayload,
  RedemptionAppeal,
  RedemptionStanding,
} from '@esim/contracts';
import { AppError, isUniqueViolation, UnitOfWork } from '@esim/platform';
import { Redemption } from '../redemptions/redemption.entity';
import type { AccountControl } from './account-risk.entity';
import { RedemptionAppealEntity } from './redemption-appeal.entity';
import { RiskRules } from './risk-rules.policy';

const CONTROL_OF: Record<AccountControlAction, AccountControl> = { pause: 'paused', require_review: 'review', lift: 'cleared' };

const toAppeal = (a: RedemptionAppealEntity): RedemptionAppeal => ({
  id: a.id,
  message: a.message,
  status: a.status,
  answer: a.answer,
  createdAt: a.createdAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

/**
 * The risk rules' records (docs/earning.md, "Risk rules"): identity's signals as they arrive, the
 * user's standing and appeal, and the admins' review queue and controls. Redemptions itself
 * applies the standing when points are spent, and settles reviews.
 */
@Injectable()
export class RedemptionRisk {
  private readonly log = new Logger('RedemptionRisk');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly rules: RiskRules,
  ) {}

  /** Keeps identity's latest signals of the account; an older copy never overwrites a newer one. */
  async noteSignals(m: EntityManager, s: EventPayload<typeof AccountSignalsChanged>): Promise<void> {
    await m.query(
      `INSERT INTO account_risk (user_id, disposable_email, linked_accounts, signals_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET disposable_email = EXCLUDED.disposable_email, linked_accounts = EXCLUDED.linked_accounts, signals_at = EXCLUDED.signals_at
        WHERE account_risk.signals_at IS NULL OR account_risk.signals_at <= EXCLUDED.signals_at`,
      [s.userId, s.disposableEmail, s.linkedAccounts, s.changedAt],
    );
  }

  async standingOf(userId: string): Promise<RedemptionStanding> {
    const m = this.db.manager;
    const { state, reasons } = await this.rules.standing(m, userId);
    const latest = await m.findOne(RedemptionAppealEntity, { where: { userId }, order: { createdAt: 'DESC' } });
    return { state, reasons, appeal: latest ? toAppeal(latest) : null };
  }

  /** An appeal against paused or reviewed redemptions; one waits at a time (the partial unique index). */
  async appeal(userId: string, message: string): Promise<RedemptionAppeal> {
    const { state } = await this.rules.standing(this.db.manager, userId);
    if (state === 'open') throw new AppError('nothing_to_appeal', 'Your redemptions are open: there is nothing to appeal.');
    const appeal = this.db.manager.create(RedemptionAppealEntity, { id: randomUUID(), userId, message, status: 'open' });
    try {
      return toAppeal(await this.db.manager.save(appeal));
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('appeal_already_open', 'Your appeal is waiting for an admin; we answer it first.');
      throw err;
    }
  }

  /** Redemptions waiting for an admin and open appeals, the oldest first. */
  async queue(limit: number): Promise<{ reviews: AdminRedemptionReview[]; appeals: AdminRedemptionAppeal[] }> {
    const m = this.db.manager;
    const pending = await m.find(Redemption, { where: { status: 'pending_review' }, order: { createdAt: 'ASC' }, take: limit });
    const appeals = await m.find(RedemptionAppealEntity, { where: { status: 'open' }, order: { createdAt: 'ASC' }, take: limit });
    const standings = new Map((await this.rules.standings(m, appeals.map((a) => a.userId))).map((s) => [s.userId, s]));
    return {
      reviews: pending.map((r) => ({
        redemptionId: r.id,
        userId: r.userId,
        planTier: r.planTier,
        amountGB: r.amountGB,
        points: r.points,
        reasons: r.reviewReasons ?? [],
        createdAt: r.createdAt.toISOString(),
      })),
      appeals: appeals.map((a) => ({ ...toAppeal(a), userId: a.userId, state: standings.get(a.userId)!.state, reasons: standings.get(a.userId)!.reasons })),
    };
  }

  /**
   * An admin pauses, requires review of, or lifts the accounts' redemptions; the reason answers
   * their open appeals. The latest decision is the account's control.
   */
  async control(userIds: string[], adminId: string, action: AccountControlAction, reason: string): Promise<AccountStanding[]> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await m.query(
        `INSERT INTO account_risk (user_id, control, control_reason, control_by, control_at) SELECT u, $2, $3, $4, now() FROM unnest($1::uuid[]) AS u
         ON CONFLICT (user_id) DO UPDATE SET control = EXCLUDED.control, control_reason = EXCLUDED.control_reason, control_by = EXCLUDED.control_by, control_at = EXCLUDED.control_at`,
        [userIds, CONTROL_OF[action], reason, adminId],
      );
      await m.update(RedemptionAppealEntity, { userId: In(userIds), status: 'open' }, { status: 'answered', answer: reason, decidedBy: adminId, decidedAt: new Date() });
      this.log.log(`redemptions of ${userIds.join(', ')}: ${action} by admin ${adminId}`);
      return this.rules.standings(m, userIds);
    });
  }

  standings(userIds: string[]): Promise<AccountStanding[]> {
    return this.rules.standings(this.db.manager, userIds);
  }
}
