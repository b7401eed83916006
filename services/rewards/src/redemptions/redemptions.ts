import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  EventPayload,
  PointsReserved,
  ProvisioningFailed,
  ProvisioningSucceeded,
  RedeemCommand,
  redeemCommandSchema,
  redeemablePlan,
  RedemptionReviewDecision,
  RedemptionView,
} from '@esim/contracts';
import { afterCommit, AppError, Counter, Metrics, Tx, UnitOfWork } from '@esim/platform';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';
import { RiskRules } from '../redemption-risk/risk-rules.policy';
import { pointsReservedOf } from './points-reserved-payload';
import { Redemption } from './redemption.entity';
import { toRedemptionView } from './redemption-view';

const OPEN: ReadonlyArray<Redemption['status']> = ['processing', 'manual_transfer_required'];

/**
 * The points side of the redemption saga (docs/redemption.md): record + reserve + announce in one
 * transaction, then settle exactly once from esim's outcome. The ledger is the judge of "enough
 * points" (its trigger refuses a reservation below zero under a lock on the account), so N
 * concurrent redemptions can never spend more than the balance.
 */
@Injectable()
export class Redemptions {
  private readonly log = new Logger('Redemptions');
  private readonly statuses: Counter<'status'>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: Ledger,
    private readonly balances: BalanceAnnouncements,
    private readonly risk: RiskRules,
    metrics: Metrics,
  ) {
    this.statuses = metrics.counter({
      name: 'redemptions_total',
      help: 'Point redemptions reaching each status, counted at commit: processing (points reserved), pending_review (points reserved, waiting for an admin: the risk rules), rejected (refused by an admin, points released), completed or esim_activation_ready (delivered), failed (refused, points released), manual_transfer_required (provider unreachable, points held for an operator).',
      labelNames: ['status'],
    });
  }

  private counted(tx: Tx, status: Redemption['status']): void {
    afterCommit(tx.manager, () => this.statuses.inc({ status }));
  }

  /**
   * Records the redemption (unique per user + key), reserves its points and publishes
   * PointsReserved, all or nothing. The same key again answers the first redemption; the same key
   * with another request is a 409. Insufficient points: a 409 and nothing written. The risk rules
   * (docs/earning.md, "Risk rules") answer first: paused redemptions are a 403 with the reasons
   * and nothing written; a redemption under review keeps its points reserved and waits for an
   * admin (pending_review) instead of going to esim.
   */
  async redeem(userId: string, command: RedeemCommand): Promise<RedemptionView> {
    const { idempotencyKey, request } = redeemCommandSchema.parse(command);
    const plan = redeemablePlan(request.planTier);
    const kind = request.purchaseType === 'new' ? 'new' : 'topup';
    const wanted = {
      id: randomUUID(),
      userId,
      idempotencyKey,
      planTier: plan.tier,
      amountGB: plan.amountGB,
      points: plan.pointsCost,
      kind,
      country: kind === 'new' ? (request.country ?? null) : null,
      targetIccid: kind === 'topup' ? (request.iccid ?? null) : null,
    } satisfies Partial<Redemption>;

    return this.uow.run(async (tx) => {
      const m = tx.manager;
      // A concurrent request with the same key waits here for the first one's commit, then sees it.
      const inserted = await m.createQueryBuilder().insert().into(Redemption).values(wanted).orIgnore().returning(['id']).execute();
      if (inserted.raw.length === 0) {
        const earlier = await m.findOneByOrFail(Redemption, { userId, idempotencyKey });
        if (!sameRequest(earlier, wanted)) {
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different redemption.');
        }
        return toRedemptionView(earlier);
      }
      const standing = await this.risk.standing(m, userId);
      if (standing.state === 'paused') {
        throw new AppError('redemptions_paused', 'Your redemptions are paused while we look at your account. You can appeal from your dashboard.', {
          details: { reasons: standing.reasons },
        });
      }
      const reservation = await this.ledger.reserve(m, { userId, amount: plan.pointsCost, reference: wanted.id });
      const review = standing.state === 'review';
      await m.update(Redemption, { id: wanted.id }, { reservationId: reservation.id, ...(review ? { status: 'pending_review' as const, reviewReasons: standing.reasons } : {}) });
      await this.balances.announce(tx, [userId]);
      const saved = await m.findOneByOrFail(Redemption, { id: wanted.id });
      if (review) {
        this.counted(tx, 'pending_review');
        this.log.log(`redemption ${wanted.id}: ${plan.pointsCost} points of ${userId} reserved, waiting for an admin's review (${standing.reasons.join(', ')})`);
      } else {
        this.proceed(tx, saved, reservation.createdAt);
        this.log.log(`redemption ${wanted.id}: ${plan.pointsCost} points of ${userId} reserved for ${plan.tier} (${kind})`);
      }
      return toRedemptionView(saved);
    });
  }

  /** Hands a redemption whose points are reserved to esim (PointsReserved), as `processing`. */
  private proceed(tx: Tx, r: Redemption, reservedAt: Date): void {
    tx.publish(PointsReserved, pointsReservedOf(r, reservedAt));
    this.counted(tx, 'processing');
  }

  /**
   * An admin's decision over a redemption under review, once (the row lock: the second of two
   * admins finds it decided): approved, it goes to esim as any other; rejected, its reservation is
   * voided (the points come back) and the admin's reason is what the user reads.
   */
  async reviewed(redemptionId: string, adminId: string, d: RedemptionReviewDecision): Promise<{ redemptionId: string; status: string }> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const r = await m.findOne(Redemption, { where: { id: redemptionId }, lock: { mode: 'pessimistic_write' } });
      if (!r) throw new AppError('redemption_review_not_found', 'No such redemption.');
      if (r.status !== 'pending_review')
        throw new AppError('review_already_decided', `This redemption was already decided (${r.status}).`, { details: { status: r.status } });
      if (d.decision === 'approve') {
        await m.update(Redemption, { id: r.id }, { status: 'processing', reviewedBy: adminId, reviewNote: d.reason });
        this.proceed(tx, r, new Date());
        this.log.log(`redemption ${r.id}: approved by admin ${adminId}`);
        return { redemptionId: r.id, status: 'processing' };
      }
      await this.balances.lock(m, [r.userId]);
      await this.ledger.void(m, r.reservationId!);
      await this.balances.announce(tx, [r.userId]);
      await m.update(Redemption, { id: r.id }, {
        status: 'rejected',
        reviewedBy: adminId,
        reviewNote: d.reason,
        failureReason: 'review_rejected',
        failureMessage: d.reason,
        settledAt: new Date(),
      });
      this.counted(tx, 'rejected');
      this.log.log(`redemption ${r.id}: rejected by admin ${adminId}, ${r.points} points released`);
      return { redemptionId: r.id, status: 'rejected' };
    });
  }

  /** The acting user's redemption; someone else's is as absent as a missing one. */
  async view(m: EntityManager, userId: string, redemptionId: string): Promise<RedemptionView> {
    const r = await m.findOneBy(Redemption, { id: redemptionId, userId });
    if (!r) throw new AppError('redemption_not_found', 'No such redemption.');
    return toRedemptionView(r);
  }

  /** Every redemption of the user, newest first (their data export). */
  async listFor(m: EntityManager, userId: string): Promise<RedemptionView[]> {
    return (await m.find(Redemption, { where: { userId }, order: { createdAt: 'DESC' } })).map(toRedemptionView);
  }

  /** The data was delivered: the reservation is spent, once. */
  async succeeded(tx: Tx, p: EventPayload<typeof ProvisioningSucceeded>): Promise<void> {
    const r = await this.open(tx.manager, p.redemptionId, 'succeeded');
    if (!r) return;
    await this.balances.lock(tx.manager, [r.userId]);
    await this.ledger.post(tx.manager, r.reservationId!);
    await this.balances.announce(tx, [r.userId]);
    const status = p.kind === 'new' ? 'esim_activation_ready' : 'completed';
    this.counted(tx, status);
    // esim sends no activation material for a line outside the redeemer's wallet; this keeps none
    // even from an event that carried some (docs/decisions.md, "Topping up someone else's eSIM").
    const ownLine = p.kind === 'new' || p.ownLine;
    await tx.manager.update(Redemption, { id: r.id }, {
      status,
      iccid: p.iccid,
      ownLine,
      lpaCode: ownLine ? p.lpaCode : null,
      msisdn: ownLine ? p.msisdn : null,
      giftId: p.giftId,
      providerTransactionId: p.providerTransactionId,
      failureReason: null,
      failureMessage: null,
      settledAt: new Date(p.completedAt),
    });
    this.log.log(`redemption ${r.id}: delivered, ${r.points} points spent`);
  }

  /**
   * A definite refusal gives the points back, once. A provider that could not be reached leaves
   * them reserved and the redemption waiting for an operator (who can still deliver or refund).
   */
  async failed(tx: Tx, p: EventPayload<typeof ProvisioningFailed>): Promise<void> {
    const r = await this.open(tx.manager, p.redemptionId, p.outcome);
    if (!r) return;
    if (p.outcome === 'refused') {
      await this.balances.lock(tx.manager, [r.userId]);
      await this.ledger.void(tx.manager, r.reservationId!);
      await this.balances.announce(tx, [r.userId]);
      this.counted(tx, 'failed');
      await tx.manager.update(Redemption, { id: r.id }, {
        status: 'failed',
        failureReason: p.reason,
        failureMessage: p.message,
        settledAt: new Date(p.failedAt),
      });
      this.log.log(`redemption ${r.id}: refused by the provider (${p.reason}), ${r.points} points released`);
      return;
    }
    if (r.status === 'manual_transfer_required') return;
    this.counted(tx, 'manual_transfer_required');
    await tx.manager.update(Redemption, { id: r.id }, { status: 'manual_transfer_required', failureReason: p.reason, failureMessage: p.message });
    this.log.warn(`redemption ${r.id}: the provider could not be reached; ${r.points} points stay reserved for an operator`);
  }

  /** The redemption, locked, when it still waits for an outcome; null (logged) otherwise. */
  private async open(m: EntityManager, id: string, outcome: string): Promise<Redemption | null> {
    const r = await m.findOne(Redemption, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!r) {
      this.log.error(`outcome ${outcome} for unknown redemption ${id}: ignored`);
      return null;
    }
    if (!OPEN.includes(r.status)) {
      this.log.warn(`outcome ${outcome} for redemption ${id}, already ${r.status}: ignored`);
      return null;
    }
    return r;
  }
}

function sameRequest(a: Redemption, b: Pick<Redemption, 'planTier' | 'kind' | 'country' | 'targetIccid'>): boolean {
  return a.planTier === b.planTier && a.kind === b.kind && a.country === b.country && a.targetIccid === b.targetIccid;
}
