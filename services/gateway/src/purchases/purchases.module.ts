import { Module } from '@nestjs/common';
import { PurchasesController } from './purchases.controller';
import { SandboxStripeController } from './sandbox-stripe.controller';
import { StripeWebhookController } from './stripe-webhook.controller';

/** Card purchases (/api), Stripe's webhook (/webhooks/stripe) and the browser side of the Stripe emulator (/sandbox/stripe). */
@Module({ controllers: [PurchasesController, StripeWebhookController, SandboxStripeController] })
export class PurchasesModule {}
