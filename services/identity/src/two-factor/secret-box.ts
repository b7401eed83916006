import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';

/**
 * Encrypts TOTP secrets at rest (AES-256-GCM), so a copy of the table alone signs nobody in. The
 * key is derived (HKDF) from VERIFICATION_CODE_SECRET, identity's one server secret, under a label
 * of its own; changing that setting therefore turns off every enrolled authenticator app. Node's
 * crypto is used directly: a cipher call and its framing, nothing a library would add to.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) config: IdentityConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.VERIFICATION_CODE_SECRET, '', 'identity two-factor secret v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error('unknown sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
