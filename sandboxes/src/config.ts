import { z } from 'zod';
import { SANDBOXES_DEFAULT_PORT, STRIPE_SANDBOX_WEBHOOK_SECRET } from '@esim/contracts';
import { envInt, platformConfigSchema } from '@esim/platform';

/**
 * The sandboxes process: the provider emulators, run beside the services when a provider has no
 * credentials (npm start, docker compose), never in production. Only what it uses of the platform's
 * variables: it has no broker, no Redis and no events.
 */
export const sandboxesConfigSchema = platformConfigSchema
  .pick({ NODE_ENV: true, LOG_LEVEL: true, LOG_FORMAT: true, DATABASE_URL: true, DB_POOL_SIZE: true, ALLOW_SANDBOX_IN_PRODUCTION: true })
  .extend({
    PORT: envInt(SANDBOXES_DEFAULT_PORT, 0).describe(
      'HTTP port of the emulators: Stripe (/v1), KeepGo (/keepgo/api/v2), siteverify (/captcha/siteverify), and the browser-facing /sandbox/* the gateway proxies.',
    ),
    DB_SCHEMA_SUFFIX: z
      .string()
      .regex(/^[a-z0-9_]*$/)
      .default('')
      .describe('Appended to each emulator schema name (sandbox_stripe, sandbox_keepgo, sandbox_walls, sandbox_captcha); tests give each run its own.'),
    PUBLIC_URL: z
      .string()
      .url()
      .default('http://localhost:3000')
      .describe("The product's public address (the gateway): the offer walls sign their postbacks for PUBLIC_URL/webhooks/offerwalls/<wall>, the Stripe emulator sends its webhooks to PUBLIC_URL/webhooks/stripe, the captcha emulator names its hostname."),
    STRIPE_WEBHOOK_URL: z
      .string()
      .url()
      .optional()
      .describe('Where the Stripe emulator sends its signed webhook events (default PUBLIC_URL/webhooks/stripe).'),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_…)')
      .default(STRIPE_SANDBOX_WEBHOOK_SECRET)
      .describe("What the Stripe emulator signs its webhook events with (default: the emulator's own, which the ingestion service verifies with when its STRIPE_WEBHOOK_SECRET is unset)."),
    OFFERWALLS_POSTBACK_URL: z
      .string()
      .url()
      .optional()
      .describe(
        'Where the sandbox offer walls deliver their postbacks (default PUBLIC_URL). They sign the URL under PUBLIC_URL, as a provider behind the public address would, and send it here: the gateway, or the ingestion service directly.',
      ),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['NODE_ENV'],
    message: 'the provider emulators never run in production (or set ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  });

export type SandboxesConfig = z.infer<typeof sandboxesConfigSchema>;
