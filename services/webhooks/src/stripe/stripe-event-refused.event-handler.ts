import { EventPayload, StripeEventRefused } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { WebhookTransactions } from '../postbacks/webhook-transactions.service';

/** Payments could not apply an accepted Stripe event (no purchase for its intent, or a mismatch): the delivery's row says so, and why. */
@EventHandler(StripeEventRefused)
export class StripeEventRefusedEventHandler implements EventHandler<typeof StripeEventRefused> {
  constructor(private readonly transactions: WebhookTransactions) {}

  async handle({ deliveryId, outcome, reason, refusedAt }: EventPayload<typeof StripeEventRefused>, tx: Tx): Promise<void> {
    await this.transactions.refusedByConsumer(tx.manager, deliveryId, { outcome, reason, at: new Date(refusedAt) });
  }
}
