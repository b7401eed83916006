import { CAPTCHA_SANDBOX_SECRET, CAPTCHA_SANDBOX_SITE_KEY, SANDBOX_CAPTCHA_SITEVERIFY_PATH } from '@esim/contracts';
import type { GatewayConfig } from '../config';

export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Turnstile's documented test keys: this site key always passes, with this secret. */
export const SANDBOX_SITE_KEY = CAPTCHA_SANDBOX_SITE_KEY;
export const SANDBOX_SECRET = CAPTCHA_SANDBOX_SECRET;
/** How long a solved captcha lets the session start missions and redeem (docs/earning.md, Captcha). */
export const CAPTCHA_VALIDITY_MS = 5 * 60_000;

export interface CaptchaSettings {
  sandbox: boolean;
  siteKey: string;
  secret: string;
  verifyUrl: string;
  timeoutMs: number;
}

/** Live Turnstile when CAPTCHA_SECRET is set; otherwise the siteverify emulator of the sandboxes process (SANDBOXES_URL). */
export function captchaSettings(c: GatewayConfig): CaptchaSettings {
  const sandbox = c.CAPTCHA_SECRET === undefined;
  return {
    sandbox,
    siteKey: c.CAPTCHA_SITE_KEY ?? SANDBOX_SITE_KEY,
    secret: c.CAPTCHA_SECRET ?? SANDBOX_SECRET,
    verifyUrl: c.CAPTCHA_VERIFY_URL ?? (sandbox ? `${c.SANDBOXES_URL.replace(/\/+$/, '')}${SANDBOX_CAPTCHA_SITEVERIFY_PATH}` : TURNSTILE_SITEVERIFY_URL),
    timeoutMs: c.CAPTCHA_TIMEOUT_MS,
  };
}
