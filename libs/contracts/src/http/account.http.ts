import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import {
  emailSchema,
  localeSchema,
  messageResponseSchema,
  nameSchema,
  passwordSchema,
  PASSWORD_MAX_LENGTH,
  verificationCodeSchema,
} from './auth.http';
import { text } from './text.http';
import { userSettingsSchema, userViewSchema } from './user.http';

export const PHONE_MESSAGE = 'Please enter a valid phone number';

/** Optional phone: blank means "remove it"; otherwise digits with the usual separators. */
export const phoneSchema = text({ error: PHONE_MESSAGE })
  .trim()
  .max(32, PHONE_MESSAGE)
  .refine((v) => v === '' || /^\+?[0-9][0-9 ().-]{4,30}$/.test(v), PHONE_MESSAGE)
  .transform((v) => (v === '' ? null : v));

/** The password the user has now, asked before a new password or email is accepted. */
export const currentPasswordSchema = text({ error: 'Current password is required' }).max(PASSWORD_MAX_LENGTH);

/** An empty password field of the form means "not changing it". */
const blankAsAbsent = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * `PATCH /api/user/profile`. The SPA sends the whole form (username, email, phone) and, to change
 * the password, currentPassword + newPassword. A new email needs currentPassword too and only
 * takes effect after the code sent to it is confirmed (`POST /api/user/email/verify`).
 */
export const updateProfileRequestSchema = z
  .object({
    username: nameSchema.optional(),
    email: emailSchema.optional(),
    phone: phoneSchema.nullable().optional(),
    currentPassword: blankAsAbsent(currentPasswordSchema),
    newPassword: blankAsAbsent(passwordSchema),
    confirmPassword: blankAsAbsent(text().max(PASSWORD_MAX_LENGTH)),
  })
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.newPassword, {
    message: 'New passwords do not match.',
    path: ['confirmPassword'],
  });
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export const updateProfileResponseSchema = z.object({
  user: userViewSchema,
  /** Set while a new address waits for its code; the account keeps the old email until then. */
  pendingEmail: z.string().nullable(),
  message: z.string(),
});
export type UpdateProfileResponse = z.infer<typeof updateProfileResponseSchema>;

export const confirmEmailChangeRequestSchema = z.object({ code: verificationCodeSchema });
export type ConfirmEmailChangeRequest = z.infer<typeof confirmEmailChangeRequestSchema>;

/** `PATCH /api/user/settings`: any of the six toggles, and the interface language. */
export const updateSettingsRequestSchema = userSettingsSchema.partial().extend({ locale: localeSchema.optional() });
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;

/** The signed-in user after a change, and what happened. */
export const userUpdatedResponseSchema = z.object({ user: userViewSchema, message: z.string() });
export type UserUpdatedResponse = z.infer<typeof userUpdatedResponseSchema>;

/** The signed-in user's own account (docs/accounts.md): always the session's user, never one named in a body. */
export const AccountRoutes = {
  currentUser: defineRoute({
    method: 'GET',
    path: '/api/user',
    tag: 'Account',
    auth: 'session',
    summary: 'The signed-in user, with points, gifts and settings',
    response: userViewSchema,
  }),
  updateProfile: defineRoute({
    method: 'PATCH',
    path: '/api/user/profile',
    reasons: ['wrong_password', 'current_password_required', 'too_many_attempts'],
    tag: 'Account',
    auth: 'session',
    summary: 'Change name, phone, password or email (a new email waits for its code)',
    description: 'A new password or email needs `currentPassword`; a new password ends the other sessions of the user.',
    body: updateProfileRequestSchema,
    response: updateProfileResponseSchema,
    errors: { 429: 'Too many current-password checks for this user.' },
  }),
  confirmEmailChange: defineRoute({
    method: 'POST',
    path: '/api/user/email/verify',
    reasons: ['invalid_code', 'verification_capped', 'too_many_attempts'],
    tag: 'Account',
    auth: 'session',
    summary: 'Confirm a pending email change with the code sent to the new address',
    body: confirmEmailChangeRequestSchema,
    response: userUpdatedResponseSchema,
    errors: { 429: 'Too many code verifications from this network.' },
  }),
  updateSettings: defineRoute({
    method: 'PATCH',
    path: '/api/user/settings',
    tag: 'Account',
    auth: 'session',
    summary: 'Change any of the six toggles or the interface language',
    body: updateSettingsRequestSchema,
    response: userUpdatedResponseSchema,
    reasons: ['two_factor_needs_enrolment'],
    errors: { 409: '`twoFactorAuth` differs from the real state: it changes only through /api/user/2fa (reason `two_factor_needs_enrolment`).' },
  }),
  deleteAccount: defineRoute({
    method: 'DELETE',
    path: '/api/user/account',
    tag: 'Account',
    auth: 'session',
    summary: 'Erase the account at once and end every one of its sessions',
    response: messageResponseSchema,
  }),
};
