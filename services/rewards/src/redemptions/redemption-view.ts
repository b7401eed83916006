import type { RedemptionView } from '@esim/contracts';
import type { Redemption } from './redemption.entity';

/** A points redemption as the gateway answers it (the same shape esim gives for gift claims). */
export function toRedemptionView(r: Redemption): RedemptionView {
  return {
    redemptionId: r.id,
    source: 'points',
    status: r.status,
    kind: r.kind,
    planTier: r.planTier,
    amountGB: r.amountGB,
    pointsUsed: r.points,
    country: r.country,
    iccid: r.iccid ?? r.targetIccid,
    ownLine: r.kind === 'new' || r.ownLine,
    lpaCode: r.lpaCode,
    msisdn: r.msisdn,
    giftId: r.giftId,
    failure: r.failureReason ? { reason: r.failureReason, message: r.failureMessage ?? r.failureReason } : null,
    createdAt: r.createdAt.toISOString(),
    settledAt: r.settledAt?.toISOString() ?? null,
  };
}
