import { STRIPE_SANDBOX_WEBHOOK_SECRET, STRIPE_WEBHOOK_PATH } from '@esim/contracts';
import type { PaymentsConfig } from '../config';

export const STRIPE_SETTINGS = Symbol('STRIPE_SETTINGS');

/** The emulator's own keys: public by design, they only ever open the local sandbox. */
export const SANDBOX_SECRET_KEY = 'sk_test_sandbox_dados_gratis_emulator';
export const SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox_dados_gratis_emulator';

/** Where the Stripe SDK sends its requests; null fields mean "this service's own emulator". */
export interface StripeAddress {
  host: string | null;
  port: number | null;
  protocol: 'http' | 'https';
}

/** How payments reaches Stripe, decided once at start-up. */
export interface StripeSettings {
  /** No STRIPE_SECRET_KEY: the emulator in this service answers, with the sandbox keys. */
  sandbox: boolean;
  secretKey: string;
  publishableKey: string;
  /** What the emulator signs its webhook events with (the ingestion service verifies them). */
  webhookSecret: string;
  address: StripeAddress;
  timeoutMs: number;
  maxNetworkRetries: number;
  /** Where the emulator delivers its webhook events (sandbox only). */
  webhookUrl: string;
}

/**
 * Live Stripe when STRIPE_SECRET_KEY is set; otherwise the emulator, reached over loopback on this
 * service's own HTTP port unless STRIPE_API_HOST/PORT/PROTOCOL point elsewhere (never PUBLIC_URL:
 * the SDK's calls carry the secret key and must not leave through the public edge).
 */
export function stripeSettings(c: PaymentsConfig): StripeSettings {
  const sandbox = c.STRIPE_SECRET_KEY === undefined;
  return {
    sandbox,
    secretKey: c.STRIPE_SECRET_KEY ?? SANDBOX_SECRET_KEY,
    publishableKey: c.STRIPE_PUBLISHABLE_KEY ?? SANDBOX_PUBLISHABLE_KEY,
    webhookSecret: c.STRIPE_WEBHOOK_SECRET ?? STRIPE_SANDBOX_WEBHOOK_SECRET,
    address: {
      host: c.STRIPE_API_HOST ?? (sandbox ? null : 'api.stripe.com'),
      port: c.STRIPE_API_PORT ?? (sandbox && !c.STRIPE_API_HOST ? null : c.STRIPE_API_PROTOCOL === 'http' ? 80 : 443),
      protocol: c.STRIPE_API_PROTOCOL ?? (sandbox ? 'http' : 'https'),
    },
    timeoutMs: c.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: c.STRIPE_MAX_NETWORK_RETRIES,
    webhookUrl: c.STRIPE_WEBHOOK_URL ?? new URL(STRIPE_WEBHOOK_PATH, c.PUBLIC_URL).toString(),
  };
}
