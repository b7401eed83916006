import { Injectable, Logger } from '@nestjs/common';
import { PurchaseEsimFailed, PurchaseEsimIssued } from '@esim/contracts';
import { Tx } from '@esim/platform';
import { QrCodes } from '../activation/qr-codes.service';
import { EsimLines } from '../lines/esim-lines';
import type { DeliveredLine } from '../provisioning/provisioning-outcomes';
import { Provisioning } from '../provisioning/provisioning.entity';

/**
 * How a card purchase's provisioning ends, written by ProvisioningOutcomes in the transaction that
 * ends it (the row locked, still in progress): the purchase's answer to payments goes out with it
 * through the outbox. Issued: the line joins the user's wallet as bought and
 * esim.purchase-esim-issued.v1 carries the activation code and its QR. Refused or needing a person:
 * esim.purchase-esim-failed.v1, and payments puts the purchase in its operator queue (manual
 * delivery); the payment stands either way (docs/payments.md).
 */
@Injectable()
export class PurchaseOutcomes {
  private readonly log = new Logger('Purchases');

  constructor(
    private readonly qr: QrCodes,
    private readonly lines: EsimLines,
  ) {}

  async issued(tx: Tx, p: Provisioning, line: DeliveredLine, now: Date): Promise<void> {
    if (!line.lpaCode) throw new Error(`purchase ${p.redemptionId}: line ${line.iccid} delivered without an activation code`);
    await this.lines.delivered(tx.manager, {
      userId: p.userId,
      iccid: line.iccid,
      lpaCode: line.lpaCode,
      msisdn: line.msisdn,
      planTier: p.planTier,
      amountGB: p.amountGB,
      source: 'bought',
      at: now,
    });
    await tx.manager.update(Provisioning, { id: p.id }, {
      status: 'succeeded',
      iccid: line.iccid,
      ownLine: true,
      lpaCode: line.lpaCode,
      msisdn: line.msisdn,
      providerTransactionId: line.transactionId,
      completedAt: now,
    });
    tx.publish(PurchaseEsimIssued, {
      purchaseId: p.redemptionId,
      userId: p.userId,
      iccid: line.iccid,
      lpaCode: line.lpaCode,
      msisdn: line.msisdn,
      qrCode: await this.qr.toDataUrl(line.lpaCode),
      providerOrderId: line.transactionId,
      issuedAt: now.toISOString(),
    });
    this.log.log(`purchase ${p.redemptionId}: ${p.planTier} eSIM ${line.iccid} issued for ${p.country}`);
  }

  /** The eSIM was issued earlier: the same answer again (payments applies it once). */
  async issuedAgain(tx: Tx, p: Provisioning): Promise<void> {
    tx.publish(PurchaseEsimIssued, {
      purchaseId: p.redemptionId,
      userId: p.userId,
      iccid: p.iccid!,
      lpaCode: p.lpaCode!,
      msisdn: p.msisdn,
      qrCode: await this.qr.toDataUrl(p.lpaCode!),
      providerOrderId: p.providerTransactionId,
      issuedAt: (p.completedAt ?? new Date()).toISOString(),
    });
    this.log.warn(`purchase ${p.redemptionId}: asked again; eSIM ${p.iccid} was issued already, answered again`);
  }

  /** `definite`: the provider certainly did nothing for this purchase. */
  async failed(
    tx: Tx,
    p: Provisioning,
    status: 'refused' | 'manual_transfer_required',
    failure: { reason: string; message: string; definite: boolean },
    now: Date,
  ): Promise<void> {
    await tx.manager.update(Provisioning, { id: p.id }, { status, failureReason: failure.reason, failureMessage: failure.message, completedAt: now });
    tx.publish(PurchaseEsimFailed, {
      purchaseId: p.redemptionId,
      userId: p.userId,
      reason: failure.reason,
      message: failure.message,
      definite: failure.definite,
      failedAt: now.toISOString(),
    });
    this.log.error(`purchase ${p.redemptionId}: no eSIM from the provider (${failure.reason}): ${failure.message}; payments hands it to an operator`);
  }
}
