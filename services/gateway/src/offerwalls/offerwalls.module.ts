import { Module } from '@nestjs/common';

/**
 * Offer-wall traffic has no Nest route: provider postbacks (`/webhooks/*`) are streamed to the
 * ingestion service by webhooks-proxy.ts, and the sandbox walls (`/sandbox/offerwalls/*`) to the
 * sandboxes process by http/sandboxes-proxy.ts, both from the edge middleware.
 */
@Module({})
export class OfferwallsModule {}
