import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { text } from './text.http';

/** The captcha token the widget produced (Turnstile tokens are at most 2048 characters). */
export const verifyCaptchaRequestSchema = z.object({
  token: text({ error: 'Please complete the captcha verification first' })
    .trim()
    .min(1, 'Please complete the captcha verification first')
    .max(2048, 'Captcha verification failed. Please try again.'),
});
export type VerifyCaptchaRequest = z.infer<typeof verifyCaptchaRequestSchema>;

export const verifyCaptchaResponseSchema = z.object({ success: z.literal(true), verifiedUntil: z.string() });
export type VerifyCaptchaResponse = z.infer<typeof verifyCaptchaResponseSchema>;

/** What the widget needs: the public site key, and whether verification is the local sandbox. */
export const captchaConfigSchema = z.object({ provider: z.literal('turnstile'), siteKey: z.string(), sandbox: z.boolean() });
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;

export const CAPTCHA_REQUIRED_MESSAGE = 'Please complete the captcha verification first';

export const CaptchaRoutes = {
  config: defineRoute({
    method: 'GET',
    path: '/api/captcha/config',
    tag: 'Earning',
    auth: 'public',
    summary: 'What the captcha widget needs (site key; whether verification is the local sandbox)',
    response: captchaConfigSchema,
  }),
  verify: defineRoute({
    method: 'POST',
    path: '/api/verify-captcha',
    reasons: ['captcha_failed', 'captcha_expired', 'captcha_unavailable'],
    tag: 'Earning',
    auth: 'session',
    summary: 'Check a captcha token; marks the session verified for 5 minutes',
    body: verifyCaptchaRequestSchema,
    response: verifyCaptchaResponseSchema,
    errors: { 503: 'The captcha provider could not be reached (`reason: captcha_unavailable`).' },
  }),
};
