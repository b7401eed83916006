import { STRIPE_SANDBOX_PUBLISHABLE_KEY, STRIPE_SANDBOX_SECRET_KEY } from '@esim/contracts';
import type { ProviderBreakerSettings } from '@esim/platform';
import type { PaymentsConfig } from '../config';

export const STRIPE_SETTINGS = Symbol('STRIPE_SETTINGS');

/** The emulator's own keys: public by design, they only ever open the local sandbox. */
export const SANDBOX_SECRET_KEY = STRIPE_SANDBOX_SECRET_KEY;
export const SANDBOX_PUBLISHABLE_KEY = STRIPE_SANDBOX_PUBLISHABLE_KEY;

/** Where the Stripe SDK sends its requests. */
export interface StripeAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** How payments reaches Stripe, decided once at start-up. */
export interface StripeSettings {
  /** No STRIPE_SECRET_KEY: the Stripe emulator (the sandboxes process) answers, with the sandbox keys. */
  sandbox: boolean;
  secretKey: string;
  publishableKey: string;
  address: StripeAddress;
  timeoutMs: number;
  maxNetworkRetries: number;
  /** STRIPE_BREAKER_*: when Stripe's circuit breaker opens and how long it stays open. */
  breaker: ProviderBreakerSettings;
}

/**
 * Live Stripe when STRIPE_SECRET_KEY is set; otherwise the emulator at SANDBOXES_URL, unless
 * STRIPE_API_HOST/PORT/PROTOCOL point elsewhere (never PUBLIC_URL: the SDK's calls carry the
 * secret key and must not leave through the public edge).
 */
export function stripeSettings(c: PaymentsConfig): StripeSettings {
  const sandbox = c.STRIPE_SECRET_KEY === undefined;
  const emulator = new URL(c.SANDBOXES_URL);
  const emulatorProtocol = emulator.protocol === 'https:' ? 'https' : 'http';
  const protocol = c.STRIPE_API_PROTOCOL ?? (sandbox && !c.STRIPE_API_HOST ? emulatorProtocol : sandbox ? 'http' : 'https');
  const defaultPort = sandbox && !c.STRIPE_API_HOST ? Number(emulator.port || (emulatorProtocol === 'https' ? 443 : 80)) : protocol === 'http' ? 80 : 443;
  return {
    sandbox,
    secretKey: c.STRIPE_SECRET_KEY ?? SANDBOX_SECRET_KEY,
    publishableKey: c.STRIPE_PUBLISHABLE_KEY ?? SANDBOX_PUBLISHABLE_KEY,
    address: {
      host: c.STRIPE_API_HOST ?? (sandbox ? emulator.hostname.replace(/^\[|\]$/g, '') : 'api.stripe.com'),
      port: c.STRIPE_API_PORT ?? defaultPort,
      protocol,
    },
    timeoutMs: c.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: c.STRIPE_MAX_NETWORK_RETRIES,
    breaker: { failures: c.STRIPE_BREAKER_FAILURES, halfOpenAfterMs: c.STRIPE_BREAKER_HALF_OPEN_MS },
  };
}
