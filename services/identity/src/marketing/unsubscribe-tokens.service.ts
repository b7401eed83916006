import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The token of a promotional email's unsubscribe link: `<user id>.<HMAC-SHA256 of it>`, keyed by a
 * key derived (HKDF) from VERIFICATION_CODE_SECRET, identity's one server secret, under a label of
 * its own, so the link works without a session and cannot be made for another account. It never
 * expires: an old email's link must still work. Node's crypto is used directly: one MAC, nothing
 * a library would add to.
 */
@Injectable()
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) config: IdentityConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.VERIFICATION_CODE_SECRET, '', 'identity marketing unsubscribe v1', 32));
  }

  sign(userId: string): string {
    return `${userId}.${this.mac(userId).toString('base64url')}`;
  }

  /** The account the token names, or null when identity did not sign it. */
  verify(token: string): string | null {
    const [userId, mac, ...rest] = token.split('.');
    if (rest.length > 0 || !userId || !mac || !UUID.test(userId)) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(userId);
    return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
  }

  private mac(userId: string): Buffer {
    return createHmac('sha256', this.key).update(userId).digest();
  }
}
