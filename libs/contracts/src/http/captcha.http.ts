import { z } from 'zod';

/** The captcha token the widget produced (Turnstile tokens are at most 2048 characters). */
export const verifyCaptchaRequestSchema = z.object({
  token: z
    .string({ error: 'Please complete the captcha verification first' })
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
