import { Inject, Logger } from '@nestjs/common';
import { EventPayload, PaymentSucceeded, PurchaseEsimFailed, PurchaseEsimIssued } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { QrCodes } from '../activation/qr-codes.service';
import { ESIM_PROVIDER, EsimProvider } from '../keepgo/esim-provider';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { EsimLines } from '../lines/esim-lines';

/**
 * A card payment succeeded (payments publishes it once per PaymentIntent): issue a new eSIM for the
 * plan and country, with the purchase id as our reference, so the provider never makes two lines
 * for one purchase even when this event is handled again after a crash. The adapter retries
 * transient failures (KEEPGO_RETRIES) and, when an answer was lost, looks the line up by the
 * reference. Any provider failure that remains ends the purchase in manual delivery
 * (PurchaseEsimFailed): the payment stands and an operator delivers the eSIM.
 *
 * The provider is called inside the consumer's transaction, so the line in the wallet, the inbox
 * row and the outcome event commit together; a purchase is one call, unlike the redemption
 * pipeline's sweeper (docs/payments.md, "Issuing the eSIM").
 */
@EventHandler(PaymentSucceeded)
export class PaymentSucceededEventHandler implements EventHandler<typeof PaymentSucceeded> {
  private readonly log = new Logger('Purchases');

  constructor(
    @Inject(ESIM_PROVIDER) private readonly provider: EsimProvider,
    private readonly qr: QrCodes,
    private readonly lines: EsimLines,
  ) {}

  async handle(p: EventPayload<typeof PaymentSucceeded>, tx: Tx): Promise<void> {
    let line;
    try {
      line = await this.provider.createLine({ country: p.country, plan: p.planType, reference: p.purchaseId });
    } catch (err) {
      // Anything but a provider failure is a fault of ours: redelivered, then dead-lettered.
      if (!(err instanceof EsimProviderException)) throw err;
      this.log.error(`purchase ${p.purchaseId}: no eSIM from the provider (${err.code}): ${err.message}`);
      tx.publish(PurchaseEsimFailed, {
        purchaseId: p.purchaseId,
        userId: p.userId,
        reason: err.code,
        message: err.message,
        definite: err.definite,
        failedAt: new Date().toISOString(),
      });
      return;
    }
    const now = new Date();
    await this.lines.delivered(tx.manager, {
      userId: p.userId,
      iccid: line.iccid,
      lpaCode: line.lpaCode,
      msisdn: line.msisdn,
      planTier: p.planType,
      amountGB: p.amountGB,
      source: 'bought',
      at: now,
    });
    tx.publish(PurchaseEsimIssued, {
      purchaseId: p.purchaseId,
      userId: p.userId,
      iccid: line.iccid,
      lpaCode: line.lpaCode,
      msisdn: line.msisdn,
      qrCode: await this.qr.toDataUrl(line.lpaCode),
      providerOrderId: line.transactionId,
      issuedAt: now.toISOString(),
    });
    this.log.log(`purchase ${p.purchaseId}: ${p.planType} eSIM ${line.iccid} issued for ${p.country}`);
  }
}
