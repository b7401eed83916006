import { Controller, Inject } from '@nestjs/common';
import { PaymentConfig, PaymentsRpc, SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { STRIPE_SETTINGS, StripeSettings } from '../stripe/stripe-settings';

/** GET /api/payment-config: what the card form needs to know (live Stripe.js or the emulator). */
@Controller()
export class PaymentConfigRpcHandler {
  constructor(@Inject(STRIPE_SETTINGS) private readonly settings: StripeSettings) {}

  @RpcHandler(PaymentsRpc.paymentConfig)
  config(): PaymentConfig {
    return this.settings.sandbox
      ? { mode: 'sandbox', publishableKey: this.settings.publishableKey, apiBase: SANDBOX_STRIPE_BASE_PATH }
      : { mode: 'live', publishableKey: this.settings.publishableKey, apiBase: null };
  }
}
