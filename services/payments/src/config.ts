import { z } from 'zod';
import { PURCHASE_CONFIRM_WAIT_LIMIT_MS } from '@esim/contracts';
import { envInt, platformConfigSchema, providerBreakerSettings, sandboxesUrlSetting } from '@esim/platform';

const stripeBreaker = providerBreakerSettings('Stripe');

export const paymentsConfigSchema = platformConfigSchema
  .extend({
    SANDBOXES_URL: sandboxesUrlSetting,
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(live|test)_/, 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…)')
      .optional()
      .describe('Stripe secret key. Unset: card payments go to the Stripe emulator at SANDBOXES_URL (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).'),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(live|test)_/, 'must be a Stripe publishable key (pk_…)')
      .optional()
      .describe('Stripe publishable key the card form uses; required with STRIPE_SECRET_KEY.'),
    STRIPE_API_HOST: z
      .string()
      .optional()
      .describe("Host the Stripe SDK calls (default api.stripe.com; in sandbox mode SANDBOXES_URL's)."),
    STRIPE_API_PORT: z.coerce
      .number()
      .int()
      .min(1)
      .max(65535)
      .optional()
      .describe("Port the Stripe SDK calls (default 443; in sandbox mode SANDBOXES_URL's)."),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional().describe("Protocol the Stripe SDK uses (default https; in sandbox mode SANDBOXES_URL's)."),
    STRIPE_TIMEOUT_MS: envInt(20_000, 100).describe('How long one Stripe API call may take.'),
    STRIPE_MAX_NETWORK_RETRIES: envInt(2, 0).describe('Retries of a failed Stripe API call by the SDK (each with the same idempotency key).'),
    STRIPE_BREAKER_FAILURES: stripeBreaker.failures,
    STRIPE_BREAKER_HALF_OPEN_MS: stripeBreaker.halfOpenAfterMs,
    PIX_EXPIRES_AFTER_SECONDS: envInt(1_800, 10)
      .pipe(z.number().max(1_209_600))
      .describe('How long a Pix code (QR and copy-and-paste) can be paid after it is shown; then it expires unpaid and the buyer asks for a new one (Stripe allows 10 seconds to 14 days).'),
    REFUND_WINDOW_DAYS: envInt(7, 0).describe(
      'How many days after paying a buyer may refund a purchase themselves (My eSIMs), if the provider reports its eSIM never installed nor used.',
    ),
    SUPPORT_EMAIL: z
      .string()
      .email()
      .default('support@localhost')
      .describe("Where My eSIMs tells buyers to write when no refund is offered (GET /api/payment-config); the same address as notifications' SUPPORT_EMAIL."),
    PURCHASE_CONFIRM_WAIT_MS: envInt(4_000, 0)
      .pipe(z.number().max(PURCHASE_CONFIRM_WAIT_LIMIT_MS))
      .describe(`How long confirming a purchase waits for the eSIM before answering "processing" (at most ${PURCHASE_CONFIRM_WAIT_LIMIT_MS}).`),
    PAYMENTS_RECONCILE_AFTER_MS: envInt(300_000, 0).describe(
      'How long a purchase may stay unpaid before the reconciliation asks Stripe about its PaymentIntent (its webhook may be lost); later checks back off from this, doubling up to 6 hours.',
    ),
    PAYMENTS_RECONCILE_INTERVAL_MS: envInt(60_000, 100).describe('How often the reconciliation looks for purchases due a check with Stripe.'),
    PAYMENTS_RECONCILE_GIVE_UP_HOURS: envInt(72, 1).describe('After how many hours an unpaid purchase is no longer checked with Stripe (an abandoned checkout).'),
    TRANSACTION_RETENTION_YEARS: envInt(7, 1).describe(
      'Purchases (transaction records) are deleted after this many years; one an operator acted on stays with its append-only history (docs/accounts.md, "Retention").',
    ),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.STRIPE_SECRET_KEY !== undefined || c.ALLOW_SANDBOX_IN_PRODUCTION, {
    path: ['STRIPE_SECRET_KEY'],
    message: 'STRIPE_SECRET_KEY is required in production (or ALLOW_SANDBOX_IN_PRODUCTION for a demo)',
  })
  .refine((c) => c.STRIPE_SECRET_KEY === undefined || c.STRIPE_PUBLISHABLE_KEY !== undefined, {
    path: ['STRIPE_PUBLISHABLE_KEY'],
    message: 'STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY',
  });

export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;
