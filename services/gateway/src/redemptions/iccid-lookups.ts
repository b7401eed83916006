import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { RedeemRequest } from '@esim/contracts';
import { AppError } from '@esim/platform';
import { CaptchaMarks } from '../captcha/captcha-marks';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';

/**
 * A top-up asks the eSIM provider about an ICCID the user typed. Real ICCIDs of a batch are
 * sequential and a refused guess gives the points back, so guessing must cost something
 * (docs/redemption.md, "ICCID lookups"): each top-up counts against the user's and the client
 * network's limits (RATE_LIMIT_ICCID_USER, RATE_LIMIT_ICCID_IP; 429 when spent), and a refused one
 * spends the session's captcha mark, so the next guess needs a new captcha.
 */
@Injectable()
export class IccidLookups {
  constructor(
    private readonly limits: RateLimits,
    private readonly marks: CaptchaMarks,
  ) {}

  async run<T>(req: Request, userId: string, body: RedeemRequest, redeem: () => Promise<T>): Promise<T> {
    if (body.purchaseType !== 'existing') return redeem();
    await this.limits.consume(req, ['iccidUser', userId], ['iccidIp', clientNetwork(req)]);
    try {
      return await redeem();
    } catch (err) {
      if (err instanceof AppError && err.reason === 'provider_refused') await this.marks.spend(req);
      throw err;
    }
  }
}
