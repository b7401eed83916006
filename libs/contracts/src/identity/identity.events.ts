import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { localeSchema } from '../http/auth.http';
import { identityUserSchema } from './identity.rpc';
import { signupReferralSchema } from '../rewards/referrals';

/** A 6-digit sign-up code was issued; notifications emails it. Only the mail carries the code in clear. */
export const VerificationCodeIssued = defineEvent(
  'identity',
  'verification-code-issued',
  1,
  z.object({ email: z.string(), code: z.string().regex(/^\d{6}$/), name: z.string().nullable(), locale: localeSchema, expiresInMinutes: z.number().int() }),
);

/** Someone tried to sign up with an email that already has an account: its owner is told, nobody else. */
export const ExistingAccountSignupAttempted = defineEvent(
  'identity',
  'existing-account-signup-attempted',
  1,
  z.object({ userId: z.string().uuid(), email: z.string(), locale: localeSchema }),
);

/**
 * An account was created after its email was verified; `referral` when it signed up with a
 * friend's code (identity decided whether the referral is void: docs/earning.md, "Referrals").
 */
export const UserRegistered = defineEvent(
  'identity',
  'user-registered',
  1,
  z.object({
    userId: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    locale: localeSchema,
    registeredAt: z.string().datetime(),
    referral: signupReferralSchema.optional(),
  }),
);

/**
 * Someone asked for a password reset link for this address, whether or not it has an account.
 * Recording the request is all the forgot-password answer waits for, so that answer costs the same
 * for every address; identity consumes this event itself and, for a live account, issues the link
 * (PasswordResetRequested).
 */
export const PasswordResetAsked = defineEvent(
  'identity',
  'password-reset-asked',
  1,
  z.object({ email: z.string(), askedAt: z.string().datetime() }),
);

/** A password reset link was issued for a known account; notifications emails it (built from PUBLIC_URL). */
export const PasswordResetRequested = defineEvent(
  'identity',
  'password-reset-requested',
  1,
  z.object({ userId: z.string().uuid(), email: z.string(), name: z.string(), locale: localeSchema, resetUrl: z.string().url(), expiresInMinutes: z.number().int() }),
);

/**
 * The password changed (by the user, or through a reset link); the owner is told, and the gateway
 * ends every session signed in before `changedAt` except the one that made a change (`sessionRef`),
 * so sessions end even when the gateway never saw the change's answer (a timeout).
 */
export const PasswordChanged = defineEvent(
  'identity',
  'password-changed',
  1,
  z.object({
    userId: z.string().uuid(),
    email: z.string(),
    locale: localeSchema,
    via: z.enum(['change', 'reset']),
    changedAt: z.string().datetime(),
    /** The gateway's opaque reference to the session that changed the password (via 'change'): it stays signed in. */
    sessionRef: z.string().optional(),
  }),
);

/** The account's email changed after the new address was verified; the old address is told. */
export const EmailChanged = defineEvent(
  'identity',
  'email-changed',
  1,
  z.object({ userId: z.string().uuid(), previousEmail: z.string(), email: z.string(), locale: localeSchema, changedAt: z.string().datetime() }),
);

/**
 * The account was deleted and its personal data erased. Every service drops or anonymises what it
 * keeps about this user (ledger and payment records stay, without personal data).
 */
export const AccountDeleted = defineEvent(
  'identity',
  'account-deleted',
  1,
  z.object({ userId: z.string().uuid(), deletedAt: z.string().datetime() }),
);

/**
 * What identity shows of the account changed: name, phone, email, settings, language or the admin
 * flag (a new password changes none of it, but is announced alike). Carries the whole account as
 * `get-versioned-user` answers it and the row's `version`, which every change of the row raises under the
 * row's lock: a higher version is always a later account. The gateway's user view consumes it.
 */
export const ProfileChanged = defineEvent(
  'identity',
  'profile-changed',
  1,
  z.object({
    userId: z.string().uuid(),
    user: identityUserSchema,
    version: z.number().int().positive(),
    changedAt: z.string().datetime(),
  }),
);

/**
 * What identity's fraud signals say of an account changed (docs/earning.md, "Fair fraud control"):
 * whether its email is on the disposable-domains list, and how many live accounts a shared device
 * links to it (an admin's "not the same person" takes a link out). Published at sign-up, when a
 * sign-in links a device, and on an admin's decision; rewards' risk rules read it. `changedAt`
 * orders copies: an older one never overwrites a newer one.
 */
export const AccountSignalsChanged = defineEvent(
  'identity',
  'account-signals-changed',
  1,
  z.object({
    userId: z.string().uuid(),
    disposableEmail: z.boolean(),
    linkedAccounts: z.number().int().min(0),
    changedAt: z.string().datetime(),
  }),
);
