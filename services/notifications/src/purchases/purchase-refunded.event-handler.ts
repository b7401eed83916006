import { EventEnvelope, EventPayload, PurchaseRefunded, RecipientRpc } from '@esim/contracts';
import { EventHandler, RpcClient } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

/** "We refunded your purchase", in the buyer's language, after a self-serve refund; one email per refund (the job id is the event id). */
@EventHandler(PurchaseRefunded)
export class PurchaseRefundedEventHandler implements EventHandler<typeof PurchaseRefunded> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
  ) {}

  async handle(p: EventPayload<typeof PurchaseRefunded>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    await this.emails.enqueue(
      {
        kind: 'selfRefund',
        to: to.email,
        locale: to.locale,
        data: { name: to.name, amountGB: p.amountGB, amountMinor: p.amountMinor, currency: p.currency, paymentMethod: p.paymentMethod, reference: p.purchaseId },
      },
      envelope.id,
    );
  }
}
