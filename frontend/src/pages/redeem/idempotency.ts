import { HttpError } from '../../lib/api';

/** A v4 UUID; `crypto.randomUUID` exists only in secure contexts, so plain HTTP gets the same from random bytes. */
export function newIdempotencyKey(
  cryptoImpl: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = globalThis.crypto,
): string {
  if (typeof cryptoImpl.randomUUID === 'function') return cryptoImpl.randomUUID();
  const b = cryptoImpl.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether the server definitely answered a redemption request. After a network failure, a 5xx, a
 * timeout or a rate limit the outcome is unknown (the points may have been spent); a 403 comes from
 * the captcha guard before anything is written. In those cases the next attempt of the same form
 * must carry the same key, so the server answers the first redemption instead of making a second.
 */
export function isDefiniteAnswer(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  if (error.status >= 500) return false;
  return ![403, 408, 429].includes(error.status);
}

/**
 * One Idempotency-Key per submit (docs/redemption.md): a new key for each new intent, the same
 * key again for a retry of a submit whose outcome is unknown. A changed form is a new intent (the
 * server refuses one key with two different bodies).
 */
export class IdempotencyKeys {
  private open: { key: string; fingerprint: string } | null = null;

  constructor(private readonly make: () => string = newIdempotencyKey) {}

  forSubmit(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (this.open?.fingerprint !== fingerprint) this.open = { key: this.make(), fingerprint };
    return this.open.key;
  }

  /** The server answered for good (success or a definite refusal): the next submit is a new intent. */
  settle(): void {
    this.open = null;
  }
}
