import { EventPayload, OfferwallPostbackRefused } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { WebhookTransactions } from './webhook-transactions.service';

/** Rewards could not apply an accepted delivery (closed account, unknown credit): the delivery's row says so. */
@EventHandler(OfferwallPostbackRefused)
export class OfferwallPostbackRefusedEventHandler implements EventHandler<typeof OfferwallPostbackRefused> {
  constructor(private readonly transactions: WebhookTransactions) {}

  async handle({ deliveryId, outcome, refusedAt }: EventPayload<typeof OfferwallPostbackRefused>, tx: Tx): Promise<void> {
    await this.transactions.refusedByConsumer(tx.manager, deliveryId, { outcome, at: new Date(refusedAt) });
  }
}
