import { Logger } from '@nestjs/common';
import { EventPayload, PurchaseEsimFailed } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EsimPurchasesService } from './esim-purchases.service';

/**
 * esim could not issue the eSIM of a paid purchase: it is marked for manual delivery with the
 * provider's reason, which operators find with the esim_purchases_awaiting_delivery index. The
 * payment is kept; nothing is lost.
 */
@EventHandler(PurchaseEsimFailed)
export class EsimFailedEventHandler implements EventHandler<typeof PurchaseEsimFailed> {
  private readonly log = new Logger('Purchases');

  constructor(private readonly purchases: EsimPurchasesService) {}

  async handle(e: EventPayload<typeof PurchaseEsimFailed>, tx: Tx): Promise<void> {
    const marked = await this.purchases.transition(tx.manager, { id: e.purchaseId }, ['processing'], 'manual_delivery_required', {
      failureReason: e.reason.slice(0, 200),
      failureMessage: e.message.slice(0, 2000),
    });
    if (marked) this.log.error(`purchase ${e.purchaseId} needs MANUAL DELIVERY: ${e.reason} (${e.message})`);
    else this.log.warn(`purchase ${e.purchaseId}: eSIM failure (${e.reason}) arrived for a purchase not awaiting an eSIM; left as it is`);
  }
}
