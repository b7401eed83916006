import { EventEnvelope, EventPayload, PurchaseRefunded } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { AccountNotices } from '../notices/account-notices.service';

/** "We refunded your purchase", in the buyer's language, after a self-serve refund; one email per refund (the job id is the event id). */
@EventHandler(PurchaseRefunded)
export class PurchaseRefundedEventHandler implements EventHandler<typeof PurchaseRefunded> {
  constructor(private readonly notices: AccountNotices) {}

  async handle(p: EventPayload<typeof PurchaseRefunded>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    await this.notices.email(
      p.userId,
      (to) => ({
        kind: 'selfRefund',
        data: { name: to.name, amountGB: p.amountGB, amountMinor: p.amountMinor, currency: p.currency, paymentMethod: p.paymentMethod, reference: p.purchaseId },
      }),
      { jobId: envelope.id },
    );
  }
}
