import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DataGiftGranted, RedeemCommand, redeemCommandSchema, redeemablePlan, RedeemablePlanTier, RedemptionView } from '@esim/contracts';
import { AppError, UnitOfWork } from '@esim/platform';
import { Provisioning } from '../provisioning/provisioning.entity';
import { ProvisioningSweeper } from '../provisioning/provisioning-sweeper';
import { toRedemptionView } from '../provisioning/provisioning-view';
import { DataGift } from './data-gift.entity';

/**
 * Admin gifts: granted (claimable), then claimed through the same provisioning as a points
 * redemption, at no point cost. A claim takes the smallest unclaimed gift that covers the plan
 * (so a 5GB gift is not used up by a 1GB claim while a 1GB gift waits), oldest first.
 */
@Injectable()
export class GiftClaims {
  private readonly log = new Logger('GiftClaims');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly sweeper: ProvisioningSweeper,
  ) {}

  async grant(userId: string, planTier: RedeemablePlanTier, grantedBy: string): Promise<DataGift> {
    const plan = redeemablePlan(planTier);
    const gift = await this.uow.run(async (tx) => {
      const row = tx.manager.create(DataGift, {
        id: randomUUID(),
        userId,
        amountGB: plan.amountGB,
        planTier: plan.tier,
        iccid: null,
        status: 'granted',
        source: 'admin',
        grantedGB: plan.amountGB,
        grantedBy,
      });
      await tx.manager.insert(DataGift, row);
      const saved = await tx.manager.findOneByOrFail(DataGift, { id: row.id });
      tx.publish(DataGiftGranted, {
        giftId: saved.id,
        userId,
        amountGB: saved.amountGB,
        planTier: plan.tier,
        grantedBy,
        grantedAt: saved.createdAt.toISOString(),
      });
      return saved;
    });
    this.log.log(`gift ${gift.id}: ${gift.amountGB} GB granted to ${userId} by ${grantedBy}`);
    return gift;
  }

  /**
   * Claims a covering gift for the plan and records its provisioning, in one transaction; 409
   * without one. The same key again answers the first claim (a different request: 409).
   */
  async claim(userId: string, command: RedeemCommand): Promise<RedemptionView> {
    const { idempotencyKey, request } = redeemCommandSchema.parse(command);
    const plan = redeemablePlan(request.planTier);
    const topup = request.purchaseType === 'existing';
    const wanted = {
      kind: topup ? ('topup' as const) : ('new' as const),
      planTier: plan.tier,
      country: topup ? null : (request.country ?? null),
      targetIccid: topup ? (request.iccid ?? null) : null,
    };
    const view = await this.uow.run(async (tx) => {
      const m = tx.manager;
      // Claims with one key take turns, so a retry waits for the first and answers it.
      await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`gift-claim:${userId}:${idempotencyKey}`]);
      const earlier = await m.findOneBy(Provisioning, { userId, idempotencyKey });
      if (earlier) {
        if (earlier.kind !== wanted.kind || earlier.planTier !== wanted.planTier || earlier.country !== wanted.country || earlier.targetIccid !== wanted.targetIccid) {
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different redemption.');
        }
        return { view: toRedemptionView(earlier), fresh: false };
      }
      const gift = await this.coveringGift(m, userId, plan.amountGB);
      if (!gift) throw await this.noCoveringGift(m, userId, plan.tier);
      await m.update(DataGift, { id: gift.id }, { status: 'claimed' });
      const id = randomUUID();
      await m.insert(Provisioning, {
        id,
        redemptionId: randomUUID(),
        userId,
        source: 'gift',
        idempotencyKey,
        claimedGiftId: gift.id,
        ...wanted,
        amountGB: plan.amountGB,
        points: 0,
      });
      this.log.log(`gift ${gift.id} (${gift.amountGB} GB) claimed by ${userId} for ${plan.tier}`);
      return { view: toRedemptionView(await m.findOneByOrFail(Provisioning, { id })), fresh: true };
    });
    if (view.fresh) this.sweeper.wake();
    return view.view;
  }

  async view(m: EntityManager, userId: string, redemptionId: string): Promise<RedemptionView> {
    const p = await m.findOneBy(Provisioning, { redemptionId, userId, source: 'gift' });
    if (!p) throw new AppError('redemption_not_found', 'No such redemption.');
    return toRedemptionView(p);
  }

  pending(m: EntityManager, userId: string): Promise<DataGift[]> {
    return m.find(DataGift, { where: { userId, status: 'granted' }, order: { createdAt: 'ASC' } });
  }

  private async coveringGift(m: EntityManager, userId: string, amountGB: number): Promise<DataGift | null> {
    // SKIP LOCKED: a gift another claim holds right now is not ours to take.
    const [row] = await m.query(
      `SELECT id FROM data_gifts WHERE user_id = $1 AND status = 'granted' AND amount_gb >= $2
        ORDER BY amount_gb, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [userId, amountGB],
    );
    return row ? m.findOneByOrFail(DataGift, { id: row.id }) : null;
  }

  private async noCoveringGift(m: EntityManager, userId: string, tier: RedeemablePlanTier): Promise<AppError> {
    const [{ largest }] = await m.query(`SELECT max(amount_gb)::int AS largest FROM data_gifts WHERE user_id = $1 AND status = 'granted'`, [userId]);
    const message = largest
      ? `No unclaimed data gift covers the ${tier} plan: your largest gift is ${largest}GB.`
      : `You have no unclaimed data gift to claim the ${tier} plan with.`;
    return new AppError('no_covering_gift', message, { details: { planTier: tier, largestGiftGB: largest ?? 0 } });
  }
}
