import { HttpError } from '../../lib/api';

/** The captcha messages of spec section 8, as i18n keys. */
export const CAPTCHA_MESSAGE_KEYS = {
  failed: 'captcha.failed',
  expired: 'captcha.expired',
  required: 'captcha.required',
  unavailable: 'captcha.unavailable',
} as const;
export type CaptchaMessage = keyof typeof CAPTCHA_MESSAGE_KEYS;

/**
 * Which captcha message a failed `POST /api/verify-captcha` (or a 403 from a captcha-guarded
 * route) means, from the `reason` the gateway sends; null when it is not a captcha answer.
 */
export function captchaMessageOf(error: unknown): CaptchaMessage | null {
  if (!(error instanceof HttpError)) return null;
  let reason: unknown;
  let message: unknown;
  try {
    const body: unknown = JSON.parse(error.body);
    if (body && typeof body === 'object') ({ reason, message } = body as { reason?: unknown; message?: unknown });
  } catch {
    // not JSON
  }
  if (reason === 'captcha_expired') return 'expired';
  if (reason === 'captcha_failed') return 'failed';
  if (reason === 'captcha_unavailable') return 'unavailable';
  if (reason === 'captcha_required' || (typeof message === 'string' && /complete the captcha/i.test(message))) return 'required';
  if (error.status === 400) return 'failed';
  if (error.status === 503) return 'unavailable';
  return null;
}
