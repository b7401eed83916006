import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SecretBox } from './secret-box';
import { TwoFactorCodes } from './two-factor-codes';

export type SecondFactorOutcome = 'accepted' | 'wrong' | 'not_enabled';

/**
 * Checks and spends a second factor inside the caller's transaction: a TOTP for a time-step after
 * the last one accepted, or an unused recovery code. The user's two_factor row is locked, so
 * concurrent attempts are checked one after the other.
 */
@Injectable()
export class SecondFactor {
  constructor(
    private readonly codes: TwoFactorCodes,
    private readonly box: SecretBox,
  ) {}

  async spend(manager: EntityManager, userId: string, code: string): Promise<SecondFactorOutcome> {
    const row = await this.codes.row(userId, manager, true);
    if (!row?.secret) return 'not_enabled';
    const last = row.last_time_step === null ? null : Number(row.last_time_step);
    const step = await this.codes.matchingStep(this.box.open(row.secret), code, last);
    if (step !== null) return (await this.codes.spendStep(manager, userId, step)) ? 'accepted' : 'wrong';
    return (await this.codes.spendRecoveryCode(manager, userId, code)) ? 'accepted' : 'wrong';
  }

  async isEnabled(userId: string, manager?: EntityManager): Promise<boolean> {
    return Boolean((await this.codes.row(userId, manager))?.secret);
  }
}
