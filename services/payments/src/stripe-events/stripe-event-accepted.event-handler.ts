import { Logger } from '@nestjs/common';
import { EventPayload, PaymentsRefusal, StripeEventAccepted, StripeEventRefused } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EsimPurchasesService } from '../purchases/esim-purchases.service';
import { FulfilmentService, PaidIntent } from '../purchases/fulfilment.service';

/** The longest reason StripeEventRefused carries. */
const REASON_CHARS = 500;

/**
 * A Stripe event the ingestion service verified and accepted (services/webhooks, once per event
 * id), applied here once (the inbox): `payment_intent.succeeded` fulfils the purchase by the same
 * once-only path as the confirmation call, `payment_intent.payment_failed` records the decline.
 * An intent no purchase of ours knows, or a succeeded intent that does not pay its purchase, is
 * refused: StripeEventRefused, in this transaction, and the ingestion service records it on the
 * delivery. Any other event type is left as it is.
 */
@EventHandler(StripeEventAccepted)
export class StripeEventAcceptedEventHandler implements EventHandler<typeof StripeEventAccepted> {
  private readonly log = new Logger('StripeWebhook');

  constructor(
    private readonly purchases: EsimPurchasesService,
    private readonly fulfilment: FulfilmentService,
  ) {}

  async handle(e: EventPayload<typeof StripeEventAccepted>, tx: Tx): Promise<void> {
    const pi = e.paymentIntent;
    if (!pi || (e.type !== 'payment_intent.succeeded' && e.type !== 'payment_intent.payment_failed')) return;
    const purchase = await this.purchases.findByIntent(pi.id, tx.manager);
    if (!purchase) {
      this.log.warn(`Stripe event ${e.eventId} (${e.type}): no purchase for ${pi.id}; nothing applied`);
      this.refuse(tx, e, 'rejected_unknown_payment', `no purchase for ${pi.id}`);
      return;
    }
    if (e.type === 'payment_intent.succeeded') {
      const intent: PaidIntent = { id: pi.id, status: pi.status, amount: pi.amount, amount_received: pi.amountReceived, currency: pi.currency, metadata: pi.metadata };
      const mismatch = pi.status === 'succeeded' ? this.fulfilment.mismatch(intent, purchase) : `the intent is ${pi.status}`;
      if (mismatch) {
        this.log.error(`Stripe event ${e.eventId} for purchase ${purchase.id} not fulfilled: ${mismatch}`);
        this.refuse(tx, e, 'rejected_payment_mismatch', `purchase ${purchase.id} not fulfilled: ${mismatch}`);
        return;
      }
      await this.fulfilment.fulfil(tx, intent, purchase, 'webhook');
      return;
    }
    const error = pi.lastPaymentError;
    await this.purchases.transition(tx.manager, { id: purchase.id }, ['pending', 'payment_failed'], 'payment_failed', {
      failureReason: (error?.declineCode ?? error?.code ?? 'payment_failed').slice(0, 200),
      failureMessage: (error?.message ?? 'The payment failed.').slice(0, 2000),
    });
  }

  /** Nothing of the event is applied: the ingestion service records why on its delivery (through the outbox, with this transaction). */
  private refuse(tx: Tx, e: EventPayload<typeof StripeEventAccepted>, outcome: PaymentsRefusal, reason: string): void {
    tx.publish(StripeEventRefused, {
      deliveryId: e.deliveryId,
      eventId: e.eventId,
      outcome,
      reason: reason.slice(0, REASON_CHARS),
      refusedAt: new Date().toISOString(),
    });
  }
}
