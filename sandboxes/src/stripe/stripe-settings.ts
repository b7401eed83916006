import { STRIPE_SANDBOX_PUBLISHABLE_KEY, STRIPE_SANDBOX_SECRET_KEY, STRIPE_WEBHOOK_PATH } from '@esim/contracts';
import type { SandboxesConfig } from '../config';

export const STRIPE_SETTINGS = Symbol('STRIPE_SETTINGS');

/** What the Stripe emulator accepts and where it delivers its events. */
export interface StripeSettings {
  /** The sandbox keys (libs/contracts): payments uses them whenever it has no STRIPE_SECRET_KEY. */
  secretKey: string;
  publishableKey: string;
  /** What the emulator signs its webhook events with (the ingestion service verifies them). */
  webhookSecret: string;
  /** Where the emulator delivers its webhook events, as Stripe does to the configured endpoint. */
  webhookUrl: string;
  /** The product's public address: Pix codes' hosted instructions page and QR image are under PUBLIC_URL/sandbox/stripe. */
  publicUrl: string;
}

export function stripeSettings(c: SandboxesConfig): StripeSettings {
  return {
    secretKey: STRIPE_SANDBOX_SECRET_KEY,
    publishableKey: STRIPE_SANDBOX_PUBLISHABLE_KEY,
    webhookSecret: c.STRIPE_WEBHOOK_SECRET,
    webhookUrl: c.STRIPE_WEBHOOK_URL ?? new URL(STRIPE_WEBHOOK_PATH, c.PUBLIC_URL).toString(),
    publicUrl: c.PUBLIC_URL,
  };
}
