import { Logger } from '@nestjs/common';
import { EventPayload, PurchaseCompleted, PurchaseEsimIssued } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EsimPurchasesService } from './esim-purchases.service';
import { purchaseCompleted } from './purchase-completed';

/**
 * esim issued the eSIM of a paid purchase: the purchase is activated with its ICCID, LPA code and
 * QR. A purchase an operator had taken over (manual delivery) is activated too: the eSIM exists.
 * Activating it publishes PurchaseCompleted in the same transaction: the buyer's receipt, once.
 */
@EventHandler(PurchaseEsimIssued)
export class EsimIssuedEventHandler implements EventHandler<typeof PurchaseEsimIssued> {
  private readonly log = new Logger('Purchases');

  constructor(private readonly purchases: EsimPurchasesService) {}

  async handle(e: EventPayload<typeof PurchaseEsimIssued>, tx: Tx): Promise<void> {
    const activated = await this.purchases.transition(tx.manager, { id: e.purchaseId }, ['processing', 'manual_delivery_required'], 'activated', {
      iccid: e.iccid,
      lpaCode: e.lpaCode,
      msisdn: e.msisdn,
      qrCode: e.qrCode,
      providerOrderId: e.providerOrderId,
      failureReason: null,
      failureMessage: null,
      activatedNow: true,
    });
    if (activated) {
      tx.publish(PurchaseCompleted, purchaseCompleted(activated));
      this.log.log(`purchase ${e.purchaseId} activated: eSIM ${e.iccid}`);
    } else this.log.warn(`purchase ${e.purchaseId}: eSIM ${e.iccid} issued, but the purchase is not awaiting one; left as it is`);
  }
}
