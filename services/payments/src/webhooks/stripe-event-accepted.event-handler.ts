import { Logger } from '@nestjs/common';
import { EventPayload, StripeEventAccepted } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EsimPurchasesService } from '../purchases/esim-purchases.service';
import { FulfilmentService, PaidIntent } from '../purchases/fulfilment.service';

/**
 * A Stripe event the ingestion service verified and accepted (services/webhooks, once per event
 * id), applied here once (the inbox): `payment_intent.succeeded` fulfils the purchase by the same
 * once-only path as the confirmation call, `payment_intent.payment_failed` records the decline.
 * Anything else, or an intent no purchase of ours knows, is left as it is.
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
      return;
    }
    if (e.type === 'payment_intent.succeeded') {
      const intent: PaidIntent = { id: pi.id, status: pi.status, amount: pi.amount, amount_received: pi.amountReceived, currency: pi.currency, metadata: pi.metadata };
      const mismatch = pi.status === 'succeeded' ? this.fulfilment.mismatch(intent, purchase) : `the intent is ${pi.status}`;
      if (mismatch) {
        this.log.error(`Stripe event ${e.eventId} for purchase ${purchase.id} not fulfilled: ${mismatch}`);
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
}
