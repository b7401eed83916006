import { Controller, Inject } from '@nestjs/common';
import { PaymentConfig, PaymentsRpc, SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { CONFIG, RpcHandler } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import { STRIPE_SETTINGS, StripeSettings } from '../stripe/stripe-settings';

/** GET /api/payment-config: what the card form needs to know (live Stripe.js or the emulator), and where buyers write for help. */
@Controller()
export class PaymentConfigRpcHandler {
  constructor(
    @Inject(STRIPE_SETTINGS) private readonly settings: StripeSettings,
    @Inject(CONFIG) private readonly env: PaymentsConfig,
  ) {}

  @RpcHandler(PaymentsRpc.paymentConfig)
  config(): PaymentConfig {
    const supportEmail = this.env.SUPPORT_EMAIL;
    return this.settings.sandbox
      ? { mode: 'sandbox', publishableKey: this.settings.publishableKey, apiBase: SANDBOX_STRIPE_BASE_PATH, supportEmail }
      : { mode: 'live', publishableKey: this.settings.publishableKey, apiBase: null, supportEmail };
  }
}
