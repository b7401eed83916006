import path from 'node:path';
import { z } from 'zod';
import { BRAND_NAME } from '@esim/contracts';
import { envBoolean, envInt, envList, platformConfigSchema, providerBreakerSettings } from '@esim/platform';

const smtpBreaker = providerBreakerSettings('SMTP');

export const notificationsConfigSchema = platformConfigSchema
  .extend({
    SMTP_HOST: z
      .string()
      .optional()
      .describe(
        'SMTP server. Unset: emails go to the local outbox (MAIL_OUTBOX_DIR) and the log (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).',
      ),
    SMTP_PORT: envInt(587, 1).describe('SMTP port.'),
    SMTP_SECURE: envBoolean(false).describe('Use implicit TLS (port 465).'),
    SMTP_USER: z.string().optional().describe('SMTP user name.'),
    SMTP_PASSWORD: z.string().optional().describe('SMTP password.'),
    SMTP_BREAKER_FAILURES: smtpBreaker.failures,
    SMTP_BREAKER_HALF_OPEN_MS: smtpBreaker.halfOpenAfterMs,
    MAIL_FROM: z.string().default(`${BRAND_NAME} <no-reply@localhost>`).describe('Mailbox of the From header of every email; the display name is always the brand name.'),
    MAIL_OUTBOX_DIR: z
      .string()
      .default(path.resolve(process.cwd(), 'var/mail-outbox'))
      .describe('Where emails are written as .eml files when no SMTP server is configured.'),
    EMAIL_ATTEMPTS: envInt(6, 1).describe('Tries per email before it is given up (exponential backoff).'),
    EMAIL_BACKOFF_MS: envInt(2000, 10).describe('First retry delay; doubles each time.'),
    PUBLIC_URL: z.string().url().default('http://localhost:3000').describe('Base of links in emails.'),
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (npx web-push generate-vapid-keys)')
      .optional()
      .describe(
        'Web Push VAPID public key (base64url; `npx web-push generate-vapid-keys`). Unset, with VAPID_PRIVATE_KEY: a key pair is generated once and kept in the notifications schema (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).',
      ),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key')
      .optional()
      .describe('Web Push VAPID private key (base64url); required with VAPID_PUBLIC_KEY.'),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https: URL')
      .default('mailto:no-reply@localhost')
      .describe('Who push services may contact about our pushes (VAPID `sub`): a mailto: or https: URL.'),
    WEB_PUSH_ALLOWED_HOSTS: envList('fcm.googleapis.com,*.push.apple.com,updates.push.services.mozilla.com,*.notify.windows.com').describe(
      'Push services a browser subscription may point at (host names; `*.` also matches subdomains). Subscriptions elsewhere are refused, so the service never posts to an address a user chose.',
    ),
    WEB_PUSH_CA_FILE: z
      .string()
      .optional()
      .describe('A PEM file of extra certificate authorities trusted for push services (a private push service); unset: the system CAs only.'),
    WEB_PUSH_TTL_SECONDS: envInt(86_400, 0).describe('How long a push service keeps a push for a browser that is offline.'),
    MARKETING_DIGEST_EVERY_SECONDS: envInt(604_800, 1).describe(
      'How often the promotional digest goes to the people who turned promotional email on (marketingEmails): at most once per person per period.',
    ),
    SUPPORT_EMAIL: z
      .string()
      .email()
      .default('support@localhost')
      .describe('Where receipts tell buyers to write for help (with their purchase reference).'),
  })
  .refine((c) => (c.VAPID_PUBLIC_KEY === undefined) === (c.VAPID_PRIVATE_KEY === undefined), {
    path: ['VAPID_PRIVATE_KEY'],
    message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither for a generated pair',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.VAPID_PUBLIC_KEY !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['VAPID_PUBLIC_KEY'],
    message: 'VAPID_PUBLIC_KEY is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  })
  // The local outbox is the mail sandbox: in production it would swallow every email, codes included.
  .refine((c) => c.NODE_ENV !== 'production' || c.SMTP_HOST !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['SMTP_HOST'],
    message: 'SMTP_HOST is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  });
export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
