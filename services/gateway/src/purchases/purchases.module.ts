import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { PurchasesController } from './purchases.controller';
import { SandboxStripeController } from './sandbox-stripe.controller';

/**
 * Card purchases (/api) and the browser side of the Stripe emulator (/sandbox/stripe). Stripe's
 * webhook (/webhooks/stripe) is streamed to the ingestion service (offerwalls/webhooks-proxy.ts).
 */
@Module({ imports: [RateLimitsModule], controllers: [PurchasesController, SandboxStripeController] })
export class PurchasesModule {}
