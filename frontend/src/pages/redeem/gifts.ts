import type { GiftsResponse, RedeemablePlan } from '@esim/contracts';

/** `GET /api/gifts`: the admin gifts the user can still claim (docs/redemption.md, "Gift claims"). */
export const GIFTS_QUERY_KEY = ['/api/gifts'] as const;

export type PendingGift = GiftsResponse['pendingGifts'][number];

/** A gift covers a plan when it is at least as large (a 1GB gift does not cover 3GB). */
export function giftCovers(gifts: readonly PendingGift[], plan: Pick<RedeemablePlan, 'amountGB'>): boolean {
  return gifts.some((gift) => gift.amountGB >= plan.amountGB);
}

export type PlanAccess = 'points' | 'gift' | 'locked';

/**
 * How a plan can be had: with points when the balance covers its cost, else with a pending gift
 * that covers it, else not (the tier is shown locked and cannot be chosen).
 */
export function planAccess(
  points: number,
  plan: Pick<RedeemablePlan, 'amountGB' | 'pointsCost'>,
  gifts: readonly PendingGift[],
): PlanAccess {
  if (points >= plan.pointsCost) return 'points';
  return giftCovers(gifts, plan) ? 'gift' : 'locked';
}
