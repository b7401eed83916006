import { Controller } from '@nestjs/common';
import { PaymentsRpc, ProviderAnswer, RpcRequest } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { StripeWebhookIngestionService } from './stripe-webhook-ingestion.service';

/**
 * Stripe's webhook deliveries, relayed by the gateway from POST /webhooks/stripe with the raw body
 * and the Stripe-Signature header (until the provider ingestion service takes them over).
 */
@Controller()
export class StripeWebhookRpcHandler {
  constructor(private readonly ingestion: StripeWebhookIngestionService) {}

  @RpcHandler(PaymentsRpc.ingestStripeWebhook)
  ingest({ payload, signature }: RpcRequest<typeof PaymentsRpc.ingestStripeWebhook>): Promise<ProviderAnswer> {
    return this.ingestion.ingest(payload, signature);
  }
}
