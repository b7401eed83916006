import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '@esim/contracts';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';

/** The API version the code was written against; pinned so an account upgrade changes nothing here. */
export { STRIPE_API_VERSION };

/** The official Stripe SDK, configured once: live Stripe, or the emulator (the sandboxes process). */
@Injectable()
export class StripeApiService {
  private client?: Stripe;

  constructor(@Inject(STRIPE_SETTINGS) readonly settings: StripeSettings) {}

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
