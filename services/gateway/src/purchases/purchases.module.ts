import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { PurchasesController } from './purchases.controller';

/**
 * Card purchases (/api). Stripe's webhook (/webhooks/stripe) is streamed to the ingestion service
 * (offerwalls/webhooks-proxy.ts); the Stripe emulator's browser side (/sandbox/stripe) to the
 * sandboxes process (http/sandboxes-proxy.ts).
 */
@Module({ imports: [RateLimitsModule], controllers: [PurchasesController] })
export class PurchasesModule {}
