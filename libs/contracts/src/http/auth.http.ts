import { z } from 'zod';
import { LOCALES } from '../catalogue/locales';
import { ERROR_CODES, ERROR_REASONS } from '../errors';
import { defineRoute } from '../openapi/define-route';
import { referralCodeSchema } from '../rewards/referrals';
import { singleLineText, text } from './text.http';
import { userViewSchema } from './user.http';

/** Password rule used everywhere: sign-up, reset and change (docs/decisions.md, Accounts and sessions). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_RULE_MESSAGE = `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`;

export const emailSchema = text({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

export const passwordSchema = text({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_RULE_MESSAGE)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

export const NAME_CHARACTERS_MESSAGE = 'Name cannot contain line breaks or other control characters';

/** One line of text: a name goes into email greetings and headers, where a line break would forge one. */
export const nameSchema = singleLineText({ error: 'Name is required' }, NAME_CHARACTERS_MESSAGE)
  .trim()
  .min(1, 'Name is required')
  .max(80, 'Name must be at most 80 characters long');

export const verificationCodeSchema = text({ error: 'Verification code must be 6 digits' })
  .trim()
  .regex(/^\d{6}$/, 'Verification code must be 6 digits');

export const localeSchema = z.enum(LOCALES);

export const registerRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  acceptTerms: z.literal(true, { error: 'You must accept the Terms of Service to continue' }),
  acceptPrivacy: z.literal(true, { error: 'You must accept the Privacy Policy to continue' }),
  locale: localeSchema.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({
  requiresVerification: z.literal(true),
  email: z.string(),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const verifyEmailRequestSchema = z.object({
  email: emailSchema,
  code: verificationCodeSchema,
  password: passwordSchema,
  name: nameSchema,
  locale: localeSchema.optional(),
  /** A friend's invitation code (the link `/auth?signup=true&ref=<code>`); an unknown code is ignored. */
  referralCode: referralCodeSchema.optional(),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

export const resendVerificationRequestSchema = z.object({
  email: emailSchema,
  locale: localeSchema.optional(),
});
export type ResendVerificationRequest = z.infer<typeof resendVerificationRequestSchema>;

/** Sign-in checks only presence and bounds: any other rule would tell which accounts can exist. */
export const loginEmailSchema = text({ error: 'Email is required' }).trim().toLowerCase().min(1, 'Email is required').max(254);
export const loginPasswordSchema = text({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH);

export const loginRequestSchema = z.object({ username: loginEmailSchema, password: loginPasswordSchema });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const forgotPasswordRequestSchema = z.object({ email: emailSchema, locale: localeSchema.optional() });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetTokenSchema = text({ error: 'Invalid or expired reset link' }).min(1, 'Invalid or expired reset link').max(256);

export const resetPasswordRequestSchema = z.object({
  token: resetTokenSchema,
  newPassword: passwordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** Every error answer of the API: the client shows `message`. */
export const apiErrorSchema = z.object({
  /** For people, in English: clients word the error by `reason`. */
  message: z.string(),
  /** The coarse kind, which fixes the HTTP status. */
  code: z.enum(ERROR_CODES),
  /** The declared reason programs branch on, e.g. `insufficient_points` (libs/contracts/src/errors). */
  reason: z.enum(ERROR_REASONS),
  /** The typed facts of some reasons, e.g. `{ requested, available }` for `insufficient_points`. */
  details: z.unknown().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** An answer that only says what happened. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const resendVerificationResponseSchema = z.object({ email: z.string(), message: z.string() });
export type ResendVerificationResponse = z.infer<typeof resendVerificationResponseSchema>;

/** `POST /api/verify-email`: the new account, signed in. */
export const verifyEmailResponseSchema = z.object({ user: userViewSchema });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

const TOO_MANY = 'Too many attempts from this network or for this email (`Retry-After` says when to try again).';

/** Sign-up, sign-in and password reset (docs/accounts.md). */
export const AuthRoutes = {
  register: defineRoute({
    method: 'POST',
    path: '/api/register',
    reasons: ['too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Start a sign-up: emails a 6-digit code',
    description: 'The same answer for a new and an already registered email; the password is sent again with the code.',
    body: registerRequestSchema,
    response: registerResponseSchema,
    errors: { 429: TOO_MANY },
  }),
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/api/verify-email',
    reasons: ['invalid_code', 'verification_capped', 'too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Finish a sign-up with the code: creates the account and signs in',
    body: verifyEmailRequestSchema,
    response: verifyEmailResponseSchema,
    errors: { 429: 'Too many verifications from this network, or too many wrong codes for this email today.' },
  }),
  resendVerification: defineRoute({
    method: 'POST',
    path: '/api/resend-verification',
    reasons: ['resend_too_soon', 'too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Send the sign-up code again (one a minute)',
    body: resendVerificationRequestSchema,
    response: resendVerificationResponseSchema,
    errors: { 429: TOO_MANY },
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/login',
    reasons: ['invalid_credentials', 'too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Sign in with email and password (a new session id)',
    description: 'With two-factor sign-in on, the right password answers `{ twoFactorRequired: true }` and signs nobody in until `POST /api/login/2fa`.',
    body: loginRequestSchema,
    response: z.union([userViewSchema, z.object({ twoFactorRequired: z.literal(true) })]),
    errors: {
      401: 'Invalid email or password (the same for an unknown email).',
      429: 'Too many attempts for this account or from this address.',
    },
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/logout',
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Sign out (answers the same without a session)',
    response: messageResponseSchema,
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/api/forgot-password',
    reasons: ['too_many_attempts'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: 'Email a password reset link (the same answer for every email)',
    body: forgotPasswordRequestSchema,
    response: messageResponseSchema,
    errors: { 429: TOO_MANY },
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/reset-password',
    reasons: ['invalid_reset_token'],
    tag: 'Sign-up and sign-in',
    auth: 'public',
    summary: "Set a new password with the emailed token; ends every one of the user's sessions",
    body: resetPasswordRequestSchema,
    response: messageResponseSchema,
  }),
};
