import type { GiftsResponse, RedeemablePlan } from '@esim/contracts';

/** `GET /api/gifts`: the admin gifts the user can still claim (docs/redemption.md, "Gift claims"). */
export const GIFTS_QUERY_KEY = ['/api/gifts'] as const;

export type PendingGift = GiftsResponse['pendingGifts'][number];

/** A gift covers a plan when it is at least as large (a 1GB gift does not cover 3GB). */
export function giftCovers(gifts: readonly PendingGift[], plan: Pick<RedeemablePlan, 'amountGB'>): boolean {
  return gifts.some((gift) => gift.amountGB >= plan.amountGB);
}

export type PlanAccess = 'points' | 'gift' | 'both' | 'locked';

/**
 * How a plan can be had: with points when the balance covers its cost, with a pending gift that
 * covers it, with either ('both': the person chooses), or not (the tier is shown locked and
 * cannot be chosen).
 */
export function planAccess(
  points: number,
  plan: Pick<RedeemablePlan, 'amountGB' | 'pointsCost'>,
  gifts: readonly PendingGift[],
): PlanAccess {
  const byPoints = points >= plan.pointsCost;
  const byGift = giftCovers(gifts, plan);
  if (byPoints && byGift) return 'both';
  if (byPoints) return 'points';
  return byGift ? 'gift' : 'locked';
}

/** The gift a claim of this plan uses, as the server picks it: the smallest that covers it, oldest first. */
export function coveringGift(gifts: readonly PendingGift[], plan: Pick<RedeemablePlan, 'amountGB'>): PendingGift | undefined {
  return gifts
    .filter((gift) => gift.amountGB >= plan.amountGB)
    .sort((a, b) => a.amountGB - b.amountGB || a.grantedAt.localeCompare(b.grantedAt))[0];
}
