import path from 'node:path';
import { z } from 'zod';
import { BRAND_NAME } from '@esim/contracts';
import { envBoolean, envInt, platformConfigSchema } from '@esim/platform';

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
    MAIL_FROM: z.string().default(`${BRAND_NAME} <no-reply@localhost>`).describe('Mailbox of the From header of every email; the display name is always the brand name.'),
    MAIL_OUTBOX_DIR: z
      .string()
      .default(path.resolve(process.cwd(), 'var/mail-outbox'))
      .describe('Where emails are written as .eml files when no SMTP server is configured.'),
    EMAIL_ATTEMPTS: envInt(6, 1).describe('Tries per email before it is given up (exponential backoff).'),
    EMAIL_BACKOFF_MS: envInt(2000, 10).describe('First retry delay; doubles each time.'),
    PUBLIC_URL: z.string().url().default('http://localhost:3000').describe('Base of links in emails.'),
    SUPPORT_EMAIL: z
      .string()
      .email()
      .default('support@localhost')
      .describe('Where receipts tell buyers to write for help (with their purchase reference).'),
  })
  // The local outbox is the mail sandbox: in production it would swallow every email, codes included.
  .refine((c) => c.NODE_ENV !== 'production' || c.SMTP_HOST !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['SMTP_HOST'],
    message: 'SMTP_HOST is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  });
export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
