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
  private readonly risky: { minPoints: number; multiplier: number };

  constructor(@Inject(CONFIG) config: RewardsConfig) {
    this.risky = { minPoints: config.RISK_HOLD_MIN_POINTS, multiplier: config.RISK_HOLD_MULTIPLIER };
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

  /**
   * When a credit of `points` from `wall`, credited at `now`, becomes spendable; null: at once. A
   * risky account's (the risk rules, docs/earning.md "Risk rules") waits RISK_HOLD_MULTIPLIER times
   * as long, from RISK_HOLD_MIN_POINTS when that is lower than the wall's minimum.
   */
  heldUntil(wall: OfferwallId, points: number, now: Date, risky = false): Date | null {
    const hold = this.holds[wall];
    const minPoints = risky ? Math.min(hold.minPoints, this.risky.minPoints) : hold.minPoints;
    const seconds = risky ? hold.seconds * this.risky.multiplier : hold.seconds;
    if (seconds === 0 || points < minPoints) return null;
    return new Date(now.getTime() + seconds * 1000);
  }
}
