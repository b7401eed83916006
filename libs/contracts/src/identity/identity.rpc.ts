import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { deviceIdSchema, referralCodeSchema } from '../rewards/referrals';
import {
  emailSchema, localeSchema, loginEmailSchema, loginPasswordSchema, nameSchema, passwordSchema, resetTokenSchema, verificationCodeSchema,
} from '../http/auth.http';
import { currentPasswordSchema, phoneSchema } from '../http/account.http';
import { text } from '../http/text.http';
import { userSettingsSchema } from '../http/user.http';

/** The identity-owned part of a user. */
export const identityUserSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  phone: z.string().nullable(),
  locale: localeSchema,
  settings: userSettingsSchema,
});
export type IdentityUser = z.infer<typeof identityUserSchema>;

/** What the acting user may change about themselves; a new password or email needs currentPassword. */
const updateProfileSchema = z.object({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.nullable().optional(),
  currentPassword: currentPasswordSchema.optional(),
  newPassword: passwordSchema.optional(),
  /**
   * The gateway's opaque reference to the session asking (a hash, never the session id): a new
   * password ends the user's other sessions, and PasswordChanged carries it so this one stays.
   */
  sessionRef: text().max(128).optional(),
});

/**
 * Self-service RPCs act on the acting user: the signed-in user the gateway passes as `meta.userId`
 * (RpcMeta), never on an id in the request. Identity answers 401 when there is none.
 */
export const IdentityRpc = {
  register: defineRpc(
    'identity',
    'register',
    z.object({ email: emailSchema, name: nameSchema, locale: localeSchema }),
    z.object({ email: z.string() }),
  ),
  verifyEmail: defineRpc(
    'identity',
    'verify-email',
    z.object({
      email: emailSchema,
      code: verificationCodeSchema,
      password: passwordSchema,
      name: nameSchema,
      locale: localeSchema,
      referralCode: referralCodeSchema.optional(),
      deviceId: deviceIdSchema.optional(),
      /** The client's address as the gateway resolved it, IPv6 by its /64: a signal, never a link on its own. */
      network: z.string().max(64).optional(),
    }),
    z.object({ user: identityUserSchema }),
  ),
  resendVerification: defineRpc('identity', 'resend-verification', z.object({ email: emailSchema, locale: localeSchema }), z.object({ email: z.string() })),
  /** The acting user's account (meta.userId) with the row's version (ProfileChanged's), for the gateway's user view. */
  getVersionedUser: defineRpc('identity', 'get-versioned-user', z.object({}), z.object({ user: identityUserSchema, version: z.number().int().positive() })),
  /**
   * Answers 401 'Invalid email or password' alike for an unknown email and a wrong password. With
   * two-factor sign-in on, `twoFactorRequired`: the gateway signs in only after TwoFactorRpc.verifySignIn.
   */
  login: defineRpc(
    'identity',
    'login',
    z.object({ email: loginEmailSchema, password: loginPasswordSchema, deviceId: deviceIdSchema.optional(), network: z.string().max(64).optional() }),
    z.object({ user: identityUserSchema, twoFactorRequired: z.boolean() }),
  ),
  /**
   * Same answer, after the same work, for known and unknown emails: the request is recorded
   * (PasswordResetAsked) and a known account gets its link by email right after the answer.
   */
  forgotPassword: defineRpc('identity', 'forgot-password', z.object({ email: emailSchema }), z.object({})),
  /** Spends a reset token; answers the user whose sessions must now end (PasswordChanged ends them too). */
  resetPassword: defineRpc('identity', 'reset-password', z.object({ token: resetTokenSchema, newPassword: passwordSchema }), z.object({ userId: z.string().uuid() })),
  /** Changes the acting user's profile (meta.userId). */
  updateProfile: defineRpc('identity', 'update-profile', updateProfileSchema, z.object({ user: identityUserSchema, pendingEmail: z.string().nullable(), passwordChanged: z.boolean() })),
  /** Confirms the acting user's pending email change with the code sent to the new address. */
  confirmEmailChange: defineRpc('identity', 'confirm-email-change', z.object({ code: verificationCodeSchema }), z.object({ user: identityUserSchema })),
  /** Changes the acting user's toggles and language (meta.userId). */
  updateSettings: defineRpc('identity', 'update-settings', z.object({ settings: userSettingsSchema.partial(), locale: localeSchema.optional() }), z.object({ user: identityUserSchema })),
  /** Erases the acting user's personal data at once (meta.userId); the email is free again. */
  deleteAccount: defineRpc('identity', 'delete-account', z.object({}), z.object({ userId: z.string().uuid() })),
  /** Whether the acting user (meta.userId) is an admin; false for a visitor or a deleted account. */
  isAdmin: defineRpc('identity', 'is-admin', z.object({}), z.object({ isAdmin: z.boolean() })),
  /**
   * The acting user's referral code and the friends who signed up with it: each one's first name
   * only, or null when the friend keeps a private profile (docs/earning.md, "Referrals").
   */
  getReferralProfile: defineRpc(
    'identity',
    'get-referral-profile',
    z.object({}),
    z.object({ code: z.string(), invitees: z.array(z.object({ userId: z.string().uuid(), name: z.string().nullable() })) }),
  ),
} as const;
