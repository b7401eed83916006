import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { generateSecret, generateURI, verify } from 'otplib';
import { BRAND_NAME } from '@esim/contracts';
import { AppError } from '@esim/platform';
import { PasswordHasher } from '../credentials/password-hasher';

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = BRAND_NAME;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Ten base32 characters, 5 random bits each (a byte mod 32 is unbiased: 256 is a multiple of 32). */
const randomRecoveryCode = () => [...randomBytes(10)].map((b) => BASE32[b % 32]).join('');

export const wrongCodeError = () => new AppError('two_factor_code_invalid', 'The code is wrong or was already used');

interface TwoFactorRow {
  pending_secret: string | null;
  secret: string | null;
  last_time_step: string | null;
}

/**
 * TOTP (RFC 6238 through otplib: SHA-1, 6 digits, 30 s, one step of clock drift either way) and
 * recovery codes. A TOTP is accepted only for a time-step after the last one accepted, recorded
 * with a conditional update, so a code is good once even when two requests race with it. A
 * recovery code is spent by the update that sets its `used_at`.
 */
@Injectable()
export class TwoFactorCodes {
  constructor(
    private readonly db: DataSource,
    private readonly hasher: PasswordHasher,
  ) {}

  newSecret(): string {
    return generateSecret();
  }

  otpauthUrl(secret: string, email: string): string {
    return generateURI({ issuer: ISSUER, label: email, secret });
  }

  async row(userId: string, manager: EntityManager = this.db.manager, lock = false): Promise<TwoFactorRow | undefined> {
    const rows: TwoFactorRow[] = await manager.query(
      `SELECT pending_secret, secret, last_time_step FROM two_factor WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    return rows[0];
  }

  /** The time-step `code` matches for `secret`, if it is later than `after`. */
  async matchingStep(secret: string, code: string, after: number | null): Promise<number | null> {
    if (!/^[0-9]{6}$/.test(code)) return null;
    const result = await verify({ secret, token: code, epochTolerance: 30, ...(after !== null ? { afterTimeStep: after } : {}) });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  /** Records `step` as used; false when another request recorded it (or a later one) first. */
  async spendStep(manager: EntityManager, userId: string, step: number): Promise<boolean> {
    const [, count] = (await manager.query(
      'UPDATE two_factor SET last_time_step = $2 WHERE user_id = $1 AND (last_time_step IS NULL OR last_time_step < $2)',
      [userId, step],
    )) as [unknown, number];
    return count === 1;
  }

  /** Ten fresh codes (50 random bits each, `XXXXX-XXXXX`), replacing any the user had. */
  async issueRecoveryCodes(manager: EntityManager, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, randomRecoveryCode);
    const hashes = await Promise.all(codes.map((c) => this.hasher.hash(c)));
    await manager.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
    for (const hash of hashes) await manager.query('INSERT INTO two_factor_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [userId, hash]);
    return codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
  }

  /** Spends the unused recovery code `code` (canonical form, no dash) matches; false if none does. */
  async spendRecoveryCode(manager: EntityManager, userId: string, code: string): Promise<boolean> {
    if (!/^[A-Z2-7]{10}$/.test(code)) return false;
    const unused: { id: string; code_hash: string }[] = await manager.query(
      'SELECT id, code_hash FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    for (const { id, code_hash } of unused) {
      if (!(await this.hasher.verify(code_hash, code))) continue;
      const [, count] = (await manager.query('UPDATE two_factor_recovery_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL', [id])) as [
        unknown,
        number,
      ];
      return count === 1;
    }
    return false;
  }
}
