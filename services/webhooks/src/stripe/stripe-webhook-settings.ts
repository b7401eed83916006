import { STRIPE_SANDBOX_WEBHOOK_SECRET } from '@esim/contracts';
import type { WebhooksConfig } from '../config';

/**
 * How Stripe's deliveries are verified: the endpoint's signing secret (the emulator's own, shared
 * with payments through @esim/contracts, when STRIPE_WEBHOOK_SECRET is unset; the config schema
 * refuses that in production unless ALLOW_SANDBOX_IN_PRODUCTION) and the oldest signature accepted.
 */
export class StripeWebhookSettings {
  private constructor(
    readonly secret: string,
    readonly toleranceSeconds: number,
    readonly sandbox: boolean,
  ) {}

  static fromConfig(c: WebhooksConfig): StripeWebhookSettings {
    return new StripeWebhookSettings(c.STRIPE_WEBHOOK_SECRET ?? STRIPE_SANDBOX_WEBHOOK_SECRET, c.STRIPE_WEBHOOK_TOLERANCE_SECONDS, c.STRIPE_WEBHOOK_SECRET === undefined);
  }
}
