import { REDEMPTION_THRESHOLD_POINTS } from '@esim/contracts';

/** Progress toward the redemption threshold: points / 1000, capped to 0..100 (spec section 9). */
export function redemptionProgress(points: number): { percent: number; remaining: number; ready: boolean } {
  const percent = Math.max(0, Math.min(100, (points / REDEMPTION_THRESHOLD_POINTS) * 100));
  return { percent, remaining: Math.max(0, REDEMPTION_THRESHOLD_POINTS - points), ready: points >= REDEMPTION_THRESHOLD_POINTS };
}

/** The share of the threshold that held points would add (drawn after the spendable progress), 0..100. */
export function pendingProgress(points: number, pendingPoints: number): number {
  const spendable = Math.max(0, points);
  const withPending = Math.min(REDEMPTION_THRESHOLD_POINTS, spendable + Math.max(0, pendingPoints));
  return Math.max(0, ((withPending - Math.min(spendable, REDEMPTION_THRESHOLD_POINTS)) / REDEMPTION_THRESHOLD_POINTS) * 100);
}
