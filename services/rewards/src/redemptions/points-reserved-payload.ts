import type { EventPayload, PointsReserved } from '@esim/contracts';
import type { Redemption } from './redemption.entity';

/** What esim is told of a redemption whose points are reserved (PointsReserved): a first time, after a review, or again by an operator. */
export function pointsReservedOf(r: Redemption, reservedAt: Date): EventPayload<typeof PointsReserved> {
  return {
    redemptionId: r.id,
    userId: r.userId,
    planTier: r.planTier,
    amountGB: r.amountGB,
    points: r.points,
    purchaseType: r.kind === 'new' ? 'new' : 'existing',
    country: r.country as EventPayload<typeof PointsReserved>['country'],
    iccid: r.targetIccid,
    reservedAt: reservedAt.toISOString(),
  };
}
