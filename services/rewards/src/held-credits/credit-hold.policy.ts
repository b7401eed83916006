import { Inject, Injectable } from '@nestjs/common';
import type { OfferwallId } from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import type { RewardsConfig } from '../config';

interface Hold {
  minPoints: number;
  seconds: number;
}

/**
 * Which offer-wall credits are held, and for how long (docs/earning.md, "Held credits"): a credit
 * of at least the wall's minimum is held for the wall's period; each wall's
 * `<WALL>_HOLD_MIN_POINTS` / `<WALL>_HOLD_SECONDS` override the settings for every wall. A period
 * of 0 holds nothing.
 */
@Injectable()
export class CreditHoldPolicy {
  private readonly holds: Record<OfferwallId, Hold>;

  constructor(@Inject(CONFIG) config: RewardsConfig) {
    const hold = (minPoints: number | undefined, seconds: number | undefined): Hold => ({
      minPoints: minPoints ?? config.CREDIT_HOLD_MIN_POINTS,
      seconds: seconds ?? config.CREDIT_HOLD_SECONDS,
    });
    this.holds = {
      rapidoreach: hold(config.RAPIDOREACH_HOLD_MIN_POINTS, config.RAPIDOREACH_HOLD_SECONDS),
      cpx: hold(config.CPX_HOLD_MIN_POINTS, config.CPX_HOLD_SECONDS),
      bitlabs: hold(config.BITLABS_HOLD_MIN_POINTS, config.BITLABS_HOLD_SECONDS),
      lootably: hold(config.LOOTABLY_HOLD_MIN_POINTS, config.LOOTABLY_HOLD_SECONDS),
      torox: hold(config.TOROX_HOLD_MIN_POINTS, config.TOROX_HOLD_SECONDS),
    };
  }

  /** When a credit of `points` from `wall`, credited at `now`, becomes spendable; null: at once. */
  heldUntil(wall: OfferwallId, points: number, now: Date): Date | null {
    const { minPoints, seconds } = this.holds[wall];
    if (seconds === 0 || points < minPoints) return null;
    return new Date(now.getTime() + seconds * 1000);
  }
}
