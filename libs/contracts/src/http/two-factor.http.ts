import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { text } from './text.http';
import { userViewSchema } from './user.http';

export const TWO_FACTOR_CODE_MESSAGE = 'Enter the 6-digit code from your app or a recovery code';

/**
 * A 6-digit TOTP or a recovery code (`xxxxx-xxxxx`, base32). Spaces and dashes a person types
 * are tolerated; the recovery code is compared in its canonical upper-case form.
 */
export const twoFactorCodeSchema = text({ error: TWO_FACTOR_CODE_MESSAGE })
  .max(32, TWO_FACTOR_CODE_MESSAGE)
  .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
  .refine((v) => /^[0-9]{6}$/.test(v) || /^[A-Z2-7]{10}$/.test(v), TWO_FACTOR_CODE_MESSAGE);

export const twoFactorCodeRequestSchema = z.object({ code: twoFactorCodeSchema });
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeRequestSchema>;

export const twoFactorSetupResponseSchema = z.object({
  /** Base32, to type into an app that cannot scan. */
  secret: z.string(),
  /** `otpauth://totp/...`, shown as a QR code. */
  otpauthUrl: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

export const twoFactorEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()), user: userViewSchema });
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponseSchema>;

export const twoFactorDisableResponseSchema = z.object({ user: userViewSchema });

/** `POST /api/login` when the account has 2FA on: the password was right, nobody is signed in yet. */
export const twoFactorRequiredResponseSchema = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorRequiredResponse = z.infer<typeof twoFactorRequiredResponseSchema>;

const WRONG_CODE = 'The code is wrong, already used, or expired (reason `two_factor_code_invalid`).';

/** Two-factor enrolment and the sign-in's second step (docs/accounts.md). */
export const TwoFactorRoutes = {
  setup: defineRoute({
    method: 'POST',
    path: '/api/user/2fa/setup',
    reasons: ['two_factor_already_enabled'],
    tag: 'Two-factor sign-in',
    auth: 'session',
    summary: 'Start enrolling: a new TOTP secret and its otpauth URL (shown once)',
    response: twoFactorSetupResponseSchema,
    errors: { 409: 'Two-factor sign-in is already on (reason `two_factor_already_enabled`).' },
  }),
  enable: defineRoute({
    method: 'POST',
    path: '/api/user/2fa/enable',
    reasons: ['two_factor_code_invalid', 'two_factor_not_set_up', 'two_factor_already_enabled'],
    tag: 'Two-factor sign-in',
    auth: 'session',
    summary: 'Turn two-factor sign-in on with a code from the app; answers ten recovery codes, once',
    body: twoFactorCodeRequestSchema,
    response: twoFactorEnableResponseSchema,
    errors: { 400: WRONG_CODE, 409: 'No enrolment was started, or 2FA is already on (reasons `two_factor_not_set_up`, `two_factor_already_enabled`).' },
  }),
  disable: defineRoute({
    method: 'POST',
    path: '/api/user/2fa/disable',
    reasons: ['two_factor_code_invalid', 'two_factor_not_enabled'],
    tag: 'Two-factor sign-in',
    auth: 'session',
    summary: 'Turn two-factor sign-in off with a code from the app or a recovery code',
    body: twoFactorCodeRequestSchema,
    response: twoFactorDisableResponseSchema,
    errors: { 400: WRONG_CODE, 409: 'Two-factor sign-in is off (reason `two_factor_not_enabled`).' },
  }),
  signIn: defineRoute({
    method: 'POST',
    path: '/api/login/2fa',
    reasons: ['two_factor_not_pending', 'two_factor_sign_in_code_invalid', 'too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: "Finish a sign-in that answered twoFactorRequired: a TOTP or a recovery code (each once)",
    body: twoFactorCodeRequestSchema,
    response: userViewSchema,
    errors: {
      401: 'No password step pending in this session, or it expired (reason `two_factor_not_pending`); or a wrong code (`two_factor_sign_in_code_invalid`).',
      429: 'Too many attempts for this account or from this address (wrong codes count like wrong passwords).',
    },
  }),
};
