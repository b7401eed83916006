import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, LessThan, MoreThan } from 'typeorm';
import { AppError, CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { CodePurpose, VerificationCode } from './verification-code.entity';

export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_INTERVAL_MS = 60_000;
/** Wrong codes count toward an address's daily cap for this long after the code was issued. */
const CAP_WINDOW_MS = 24 * 60 * 60_000;

const capWindowStart = () => new Date(Date.now() - CAP_WINDOW_MS);

/** Whose code it is: a sign-up address, or an account changing its email (to the address on the code). */
export type CodeTarget =
  { purpose: Extract<CodePurpose, 'signup'>; email: string } | { purpose: Extract<CodePurpose, 'email_change'>; userId: string };

/** A spent code names the address it was sent to. */
export type CodeCheck = { result: 'ok'; email: string } | { result: 'invalid' | 'capped' };

export const invalidCodeError = () => new AppError('invalid_code', 'Invalid or expired verification code');
export const tooManyAttemptsError = () =>
  new AppError('verification_capped', 'Too many attempts. Please try again later.');

/**
 * The life of 6-digit codes: 10 minutes, single use, 5 wrong tries, a new code replaces the open
 * one, and an address that collected too many wrong codes in a day gets no more tries until the
 * day has passed. All of it runs inside the caller's transaction, serialised per target.
 */
@Injectable()
export class VerificationCodes {
  private readonly key: Buffer;

  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig,
    private readonly audit: AuditLog,
  ) {
    this.key = Buffer.from(config.VERIFICATION_CODE_SECRET);
  }

  /** A fresh code sent to `email`, or null when that address hit its daily cap (callers answer as usual). */
  async issue(m: EntityManager, target: CodeTarget, email: string, opts: { resent?: boolean } = {}): Promise<string | null> {
    await this.lock(m, target);
    // Past the day they count toward the cap, codes are only personal data: whoever issues next sweeps
    // them, skipping rows another transaction holds.
    const stale = await m.getRepository(VerificationCode).find({
      select: { id: true },
      where: { createdAt: LessThan(capWindowStart()) },
      lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
    });
    if (stale.length > 0) await m.getRepository(VerificationCode).delete({ id: In(stale.map((c) => c.id)) });
    if (await this.capped(m, target, email)) return null;
    const previous = await this.open(m, target);
    let code = randomCode();
    while (previous && this.matches(previous, code)) code = randomCode();
    if (previous) await m.getRepository(VerificationCode).update(previous.id, { replacedAt: new Date() });
    await m.getRepository(VerificationCode).insert({
      purpose: target.purpose,
      email,
      userId: target.purpose === 'email_change' ? target.userId : null,
      codeHash: this.hmac(code),
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
      resent: opts.resent ?? false,
    });
    return code;
  }

  /** The code waiting for the target, if any (expired or exhausted ones included: a resend replaces them). */
  async open(m: EntityManager, target: CodeTarget): Promise<VerificationCode | null> {
    return m.getRepository(VerificationCode).findOne({
      where: {
        purpose: target.purpose,
        used: false,
        replacedAt: IsNull(),
        ...(target.purpose === 'signup' ? { email: target.email } : { userId: target.userId }),
      },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Spends the code when it matches; a wrong one counts an attempt, which the caller must commit. */
  async check(m: EntityManager, target: CodeTarget, code: string): Promise<CodeCheck> {
    await this.lock(m, target);
    const row = await this.open(m, target);
    if (!row) return { result: 'invalid' };
    if (await this.capped(m, target, row.email)) return { result: 'capped' };
    if (row.expiresAt.getTime() <= Date.now() || row.attempts >= CODE_MAX_ATTEMPTS) return { result: 'invalid' };
    if (!this.matches(row, code)) {
      await m.getRepository(VerificationCode).increment({ id: row.id }, 'attempts', 1);
      return { result: 'invalid' };
    }
    await m.getRepository(VerificationCode).update(row.id, { used: true });
    return { result: 'ok', email: row.email };
  }

  /** Removes every code sent to these addresses or for this account (account deletion). */
  async forget(m: EntityManager, emails: string[], userId: string): Promise<void> {
    const codes = m.getRepository(VerificationCode);
    await codes.delete({ email: In(emails) });
    await codes.delete({ userId });
  }

  private async capped(m: EntityManager, target: CodeTarget, email: string): Promise<boolean> {
    const failures = (await m.getRepository(VerificationCode).sum('attempts', { email, createdAt: MoreThan(capWindowStart()) })) ?? 0;
    const capped = failures >= this.config.VERIFICATION_DAILY_FAILURE_CAP;
    if (capped)
      this.audit.record('verification_capped', {
        userId: target.purpose === 'email_change' ? target.userId : null,
        reason: target.purpose,
      });
    return capped;
  }

  /**
   * Serialises issuing and checking per sign-up address or per account. A transaction-scoped
   * advisory lock, because there may be no row to lock yet (the first code for an address); the
   * one statement here that TypeORM has no API for.
   */
  private lock(m: EntityManager, target: CodeTarget): Promise<unknown> {
    const key = target.purpose === 'signup' ? `signup:${target.email}` : `email-change:${target.userId}`;
    return m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`verification-code:${key}`]);
  }

  private hmac(code: string): string {
    return createHmac('sha256', this.key).update(code).digest('hex');
  }

  private matches(row: VerificationCode, code: string): boolean {
    const expected = Buffer.from(row.codeHash, 'hex');
    const actual = Buffer.from(this.hmac(code), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}

function randomCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}
