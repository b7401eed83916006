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
