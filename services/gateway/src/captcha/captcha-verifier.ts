import { Inject, Injectable, Logger } from '@nestjs/common';
import { z } from 'zod';
import { AppError } from '@esim/platform';
import { CAPTCHA_SETTINGS } from './captcha.tokens';
import type { CaptchaSettings } from './captcha-settings';

/** Turnstile's siteverify answer (the fields this adapter reads). */
const siteverifySchema = z.object({ success: z.boolean(), 'error-codes': z.array(z.string()).default([]) });

/** Error codes that mean our own configuration is wrong, not the user's token. */
const OUR_FAULT = new Set(['missing-input-secret', 'invalid-input-secret', 'bad-request', 'internal-error']);

/**
 * The siteverify adapter: POSTs secret, response and remoteip form-encoded, as Turnstile (and
 * hCaptcha) document it, to the live endpoint or to the local emulator that speaks the same protocol.
 */
@Injectable()
export class CaptchaVerifier {
  private readonly log = new Logger('Captcha');

  constructor(@Inject(CAPTCHA_SETTINGS) private readonly settings: CaptchaSettings) {}

  async verify(token: string, remoteIp: string): Promise<void> {
    const form = new URLSearchParams({ secret: this.settings.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let answer: z.infer<typeof siteverifySchema>;
    try {
      const res = await fetch(this.settings.verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      answer = siteverifySchema.parse(await res.json());
    } catch (err) {
      this.log.error(`siteverify at ${this.settings.verifyUrl} failed: ${(err as Error).message}`);
      throw new AppError('captcha_unavailable', 'Verification failed. Please try again.');
    }
    if (answer.success) return;
    const codes = answer['error-codes'];
    if (codes.some((c) => OUR_FAULT.has(c))) {
      this.log.error(`siteverify refused our request: ${codes.join(', ')}; check CAPTCHA_SECRET`);
      throw new AppError('captcha_unavailable', 'Verification failed. Please try again.');
    }
    if (codes.includes('timeout-or-duplicate'))
      throw new AppError('captcha_expired', 'Captcha expired. Please verify again.');
    throw new AppError('captcha_failed', 'Captcha verification failed. Please try again.');
  }
}
