import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { localeSchema } from '../http/auth.http';

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

/** An account was created after its email was verified. */
export const UserRegistered = defineEvent(
  'identity',
  'user-registered',
  1,
  z.object({ userId: z.string().uuid(), email: z.string(), name: z.string(), locale: localeSchema, registeredAt: z.string().datetime() }),
);

/** A password reset was asked for a known account; notifications emails the link (built from PUBLIC_URL). */
export const PasswordResetRequested = defineEvent(
  'identity',
  'password-reset-requested',
  1,
  z.object({ userId: z.string().uuid(), email: z.string(), name: z.string(), locale: localeSchema, resetUrl: z.string().url(), expiresInMinutes: z.number().int() }),
);

/** The password changed (by the user, or through a reset link); the owner is told, sessions end. */
export const PasswordChanged = defineEvent(
  'identity',
  'password-changed',
  1,
  z.object({ userId: z.string().uuid(), email: z.string(), locale: localeSchema, via: z.enum(['change', 'reset']), changedAt: z.string().datetime() }),
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
