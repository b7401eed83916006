import { Module } from '@nestjs/common';
import { PurchasesController } from './purchases.controller';

/**
 * Card purchases (/api). Stripe's webhook (/webhooks/stripe) is streamed to the ingestion service
 * (offerwalls/webhooks-proxy.ts); the Stripe emulator's browser side (/sandbox/stripe) to the
 * sandboxes process (http/sandboxes-proxy.ts).
 */
@Module({ controllers: [PurchasesController] })
export class PurchasesModule {}
