import { createHash, randomBytes } from 'node:crypto';

export const RESET_TOKEN_TTL_MINUTES = 60;

/** 256 random bits, URL-safe: what the emailed link carries. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the table keeps: a token with 256 bits of entropy needs no salt or slow hash. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
