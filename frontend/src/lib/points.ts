import { REDEMPTION_THRESHOLD_POINTS } from '@esim/contracts';

/** Progress toward the redemption threshold: points / 1000, capped to 0..100 (spec section 9). */
export function redemptionProgress(points: number): { percent: number; remaining: number; ready: boolean } {
  const percent = Math.max(0, Math.min(100, (points / REDEMPTION_THRESHOLD_POINTS) * 100));
  return { percent, remaining: Math.max(0, REDEMPTION_THRESHOLD_POINTS - points), ready: points >= REDEMPTION_THRESHOLD_POINTS };
}
