import { HttpError } from '../../lib/api';
import { hasReason, serverError } from '../../lib/serverError';

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
  const server = serverError(error);
  if (hasReason(server, 'captcha_expired')) return 'expired';
  if (hasReason(server, 'captcha_failed')) return 'failed';
  if (hasReason(server, 'captcha_unavailable')) return 'unavailable';
  if (hasReason(server, 'captcha_required')) return 'required';
  if (error.status === 400) return 'failed';
  if (error.status === 503) return 'unavailable';
  return null;
}
