import { Module } from '@nestjs/common';
import { PurchasesController } from './purchases.controller';
import { SandboxStripeController } from './sandbox-stripe.controller';

/**
 * Card purchases (/api) and the browser side of the Stripe emulator (/sandbox/stripe). Stripe's
 * webhook (/webhooks/stripe) is streamed to the ingestion service (offerwalls/webhooks-proxy.ts).
 */
@Module({ controllers: [PurchasesController, SandboxStripeController] })
export class PurchasesModule {}
