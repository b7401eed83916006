import { z } from 'zod';

/** How many of a user's next releases of held points the balance carries (the earliest first). */
export const PENDING_RELEASES_SHOWN = 5;

/**
 * Held points that become spendable at `availableAt` (ISO time): one held offer-wall credit
 * (docs/earning.md, "Held credits").
 */
export const pendingReleaseSchema = z.object({
  points: z.number().int().positive(),
  availableAt: z.string().datetime(),
});
export type PendingRelease = z.infer<typeof pendingReleaseSchema>;

/** What the user has earned but cannot spend yet: the sum held, and the next releases. */
export const heldPointsSchema = z.object({
  /** Points of held credits: earned, not spendable until released; never part of `points`. */
  pendingPoints: z.number().int().nonnegative(),
  pendingReleases: z.array(pendingReleaseSchema).max(PENDING_RELEASES_SHOWN),
});
export type HeldPoints = z.infer<typeof heldPointsSchema>;
