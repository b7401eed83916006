import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, maskIccid, PurchaseCompleted, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/**
 * The receipt of every purchase, in the buyer's language (docs/payments.md, "Receipts"): plan,
 * price and currency, card or Pix, the date, the eSIM's ICCID masked to its last digits, the
 * purchase reference and where to get help. One email per purchase: PurchaseCompleted is
 * published once, and the job id is its event id.
 */
@EventHandler(PurchaseCompleted)
export class PurchaseCompletedEventHandler implements EventHandler<typeof PurchaseCompleted> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof PurchaseCompleted>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    await this.emails.enqueue(
      {
        kind: 'purchaseReceipt',
        to: to.email,
        locale: to.locale,
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
          appUrl: new URL('/esims', this.config.PUBLIC_URL).toString(),
        },
      },
      envelope.id,
    );
  }
}
