import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '@esim/contracts';
import { Metrics, ProviderCalls } from '@esim/platform';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';

/** The API version the code was written against; pinned so an account upgrade changes nothing here. */
export { STRIPE_API_VERSION };

/**
 * The official Stripe SDK, configured once: live Stripe, or the emulator (the sandboxes process).
 * Every call goes through `call`: timed and counted (provider_* metrics) and guarded by Stripe's
 * circuit breaker, which refuses calls unsent (ProviderCircuitOpenError) while Stripe keeps failing.
 */
@Injectable()
export class StripeApiService {
  private client?: Stripe;
  private readonly calls: ProviderCalls;

  constructor(
    @Inject(STRIPE_SETTINGS) readonly settings: StripeSettings,
    metrics: Metrics,
  ) {
    this.calls = new ProviderCalls(metrics, 'stripe', settings.breaker, isStripeFailure);
  }

  /** One Stripe call (the SDK's own retries included); `operation` names it, e.g. `paymentIntents.create`. */
  call<T>(operation: string, send: (stripe: Stripe) => Promise<T>): Promise<T> {
    return this.calls.call(operation, () => send(this.stripe));
  }

  get stripe(): Stripe {
    this.client ??= new Stripe(this.settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      host: this.settings.address.host,
      port: this.settings.address.port,
      protocol: this.settings.address.protocol,
      timeout: this.settings.timeoutMs,
      maxNetworkRetries: this.settings.maxNetworkRetries,
      telemetry: false,
      appInfo: { name: 'dados-gratis-payments' },
    });
    return this.client;
  }
}

/**
 * Stripe unwell: no connection, a 5xx, a 429. A refusal it answered (a declined card, an invalid
 * request, an already refunded charge) says it is up and does not count towards opening the breaker.
 */
function isStripeFailure(err: unknown): boolean {
  if (
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeAPIError ||
    err instanceof Stripe.errors.StripeRateLimitError
  )
    return true;
  if (err instanceof Stripe.errors.StripeError) return (err.statusCode ?? 0) >= 500;
  // Not from the SDK: a fault of ours, not Stripe's.
  return false;
}
