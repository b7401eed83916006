import type { RedeemablePlanTier, RedemptionStatus, RedemptionView } from '@esim/contracts';
import type { Provisioning } from './provisioning.entity';

export function redemptionStatusOf(p: Pick<Provisioning, 'status' | 'kind'>): RedemptionStatus {
  switch (p.status) {
    case 'pending':
    case 'in_progress':
      return 'processing';
    case 'succeeded':
      return p.kind === 'new' ? 'esim_activation_ready' : 'completed';
    case 'refused':
      return 'failed';
    case 'manual_transfer_required':
      return 'manual_transfer_required';
  }
}

/** A gift claim as the gateway answers it (rewards answers the same shape for points); never a purchase's. */
export function toRedemptionView(p: Provisioning): RedemptionView {
  if (p.source === 'purchase') throw new Error(`provisioning ${p.id} is a card purchase's, not a redemption's`);
  return {
    redemptionId: p.redemptionId,
    source: p.source,
    status: redemptionStatusOf(p),
    kind: p.kind,
    planTier: p.planTier as RedeemablePlanTier,
    amountGB: p.amountGB,
    pointsUsed: p.points,
    country: p.country,
    iccid: p.iccid ?? p.targetIccid,
    ownLine: p.kind === 'new' || p.ownLine,
    lpaCode: p.lpaCode,
    msisdn: p.msisdn,
    giftId: p.deliveredGiftId ?? p.claimedGiftId,
    failure: p.failureReason ? { reason: p.failureReason, message: p.failureMessage ?? p.failureReason } : null,
    createdAt: p.createdAt.toISOString(),
    settledAt: p.completedAt?.toISOString() ?? null,
  };
}
