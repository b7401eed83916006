import { Logger } from '@nestjs/common';
import { EventPayload, PurchaseResolved } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EsimLines } from '../lines/esim-lines';

/**
 * An operator delivered a card purchase's eSIM by hand (payments recorded it): the line joins the
 * user's wallet as bought, like one the provider issued. A refund adds nothing.
 */
@EventHandler(PurchaseResolved)
export class PurchaseResolvedEventHandler implements EventHandler<typeof PurchaseResolved> {
  private readonly log = new Logger('OperatorQueue');

  constructor(private readonly lines: EsimLines) {}

  async handle(p: EventPayload<typeof PurchaseResolved>, tx: Tx): Promise<void> {
    if (p.resolution !== 'delivered' || !p.iccid) return;
    await this.lines.delivered(tx.manager, {
      userId: p.userId,
      iccid: p.iccid,
      lpaCode: p.lpaCode,
      msisdn: null,
      planTier: p.planType,
      amountGB: p.amountGB,
      source: 'bought',
      at: new Date(p.resolvedAt),
    });
    this.log.log(`purchase ${p.purchaseId}: eSIM ${p.iccid} delivered by hand, added to the wallet`);
  }
}
