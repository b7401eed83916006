import { z } from 'zod';
import { emailSchema, localeSchema, nameSchema, passwordSchema, PASSWORD_MAX_LENGTH, verificationCodeSchema } from './auth.http';
import { userSettingsSchema, userViewSchema } from './user.http';

export const PHONE_MESSAGE = 'Please enter a valid phone number';

/** Optional phone: blank means "remove it"; otherwise digits with the usual separators. */
export const phoneSchema = z
  .string({ error: PHONE_MESSAGE })
  .trim()
  .max(32, PHONE_MESSAGE)
  .refine((v) => v === '' || /^\+?[0-9][0-9 ().-]{4,30}$/.test(v), PHONE_MESSAGE)
  .transform((v) => (v === '' ? null : v));

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
    currentPassword: blankAsAbsent(z.string({ error: 'Current password is required' }).max(PASSWORD_MAX_LENGTH)),
    newPassword: blankAsAbsent(passwordSchema),
    confirmPassword: blankAsAbsent(z.string().max(PASSWORD_MAX_LENGTH)),
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

/** A row of the admin user table (spec: admin user row). */
export const adminUserRowSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  iccid: z.string().nullable(),
  points: z.number().int(),
  dataGiftedGB: z.number().int(),
  lastGiftedAt: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;
