import { z } from 'zod';
import { envInt, envList, platformConfigSchema } from '@esim/platform';

const DEV_CODE_SECRET = 'dev-only-verification-code-secret-change-me';

/** OWASP's floor for argon2id: 19 MiB, 2 passes, 1 lane. Configuration may only go above it. */
export const ARGON2_MIN = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const identityConfigSchema = platformConfigSchema
  .extend({
    PUBLIC_URL: z
      .string()
      .url()
      .default('http://localhost:3000')
      .describe('The URL users reach the app at; password reset links are built from it, never from a request.'),
    ADMIN_EMAILS: envList()
      .transform((emails) => emails.map((e) => e.toLowerCase()))
      .describe(
        'Comma-separated emails that are admins: applied at start-up and when such an account is created. The only other way is `npm run admin -w @esim/identity -- grant|revoke <email>`.',
      ),
    VERIFICATION_CODE_SECRET: z
      .string()
      .min(32)
      .default(DEV_CODE_SECRET)
      .describe('HMAC key for stored 6-digit codes (a leaked table alone does not reveal them). Required in production.'),
    VERIFICATION_DAILY_FAILURE_CAP: envInt(20, 5).describe('Wrong codes one email may send in 24 hours before verification refuses it.'),
    ARGON2_MEMORY_KIB: envInt(ARGON2_MIN.memoryCost, ARGON2_MIN.memoryCost).describe(
      'argon2id memory cost (KiB) for new password hashes; older, weaker hashes are upgraded at login.',
    ),
    ARGON2_TIME_COST: envInt(ARGON2_MIN.timeCost, ARGON2_MIN.timeCost).describe('argon2id passes.'),
    ARGON2_PARALLELISM: envInt(ARGON2_MIN.parallelism, 1).describe('argon2id lanes.'),
    WEBAUTHN_RP_ID: z
      .string()
      .optional()
      .describe("Passkeys' relying-party id (a domain, never an IP address). Default: PUBLIC_URL's host name."),
    WEBAUTHN_ORIGIN: z
      .string()
      .url()
      .optional()
      .describe('The origin passkey answers must come from. Default: the origin of PUBLIC_URL.'),
    ANALYTICS_ANONYMISE_AFTER_YEARS: envInt(2, 1).describe(
      'The fraud signals (the networks and devices an account signed up or signed in from) are deleted once unseen for this many years (docs/accounts.md, "Retention").',
    ),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.VERIFICATION_CODE_SECRET !== DEV_CODE_SECRET, {
    path: ['VERIFICATION_CODE_SECRET'],
    message: 'VERIFICATION_CODE_SECRET is required in production',
  });
export type IdentityConfig = z.infer<typeof identityConfigSchema>;
