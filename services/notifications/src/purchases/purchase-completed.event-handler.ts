import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, maskIccid, PurchaseCompleted } from '@esim/contracts';
import { CONFIG, EventHandler } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { AccountNotices } from '../notices/account-notices.service';

/**
 * The receipt of every purchase, in the buyer's language (docs/payments.md, "Receipts"): plan,
 * price and currency, card or Pix, the date, the eSIM's ICCID masked to its last digits, the
 * purchase reference and where to get help. One email per purchase: PurchaseCompleted is
 * published once, and the job id is its event id.
 */
@EventHandler(PurchaseCompleted)
export class PurchaseCompletedEventHandler implements EventHandler<typeof PurchaseCompleted> {
  constructor(
    private readonly notices: AccountNotices,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof PurchaseCompleted>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    await this.notices.email(
      p.userId,
      (to) => ({
        kind: 'purchaseReceipt',
        data: {
          name: to.name,
          amountGB: p.amountGB,
          validityDays: p.validityDays,
          country: p.country,
          amountMinor: p.amountMinor,
          currency: p.currency,
          paymentMethod: p.paymentMethod,
          paidAt: p.paidAt,
          iccidMasked: maskIccid(p.iccid),
          reference: p.purchaseId,
          supportEmail: this.config.SUPPORT_EMAIL,
          appUrl: this.notices.url('/esims'),
        },
      }),
      { jobId: envelope.id },
    );
  }
}
