import { Inject } from '@nestjs/common';
import QRCode from 'qrcode';
import { EventEnvelope, EventPayload, PurchaseResolved, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/**
 * The outcome of a card purchase an operator resolved, in the user's language: the eSIM delivered
 * by hand ("your eSIM is ready", QR inline), or the card refunded. One email per outcome: the job
 * id is the event id.
 */
@EventHandler(PurchaseResolved)
export class PurchaseResolvedEventHandler implements EventHandler<typeof PurchaseResolved> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof PurchaseResolved>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { userId: p.userId });
    if (p.resolution === 'delivered' && p.lpaCode) {
      const png = await QRCode.toBuffer(p.lpaCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
      await this.emails.enqueue(
        {
          kind: 'esimReady',
          to: to.email,
          locale: to.locale,
          data: { name: to.name, amountGB: p.amountGB, lpaCode: p.lpaCode, qrPngBase64: png.toString('base64'), appUrl: new URL('/esims', this.config.PUBLIC_URL).toString() },
        },
        envelope.id,
      );
      return;
    }
    if (p.resolution === 'refunded') {
      const amount = `${(p.amountCents / 100).toFixed(2)} ${p.currency.toUpperCase()}`;
      await this.emails.enqueue({ kind: 'purchaseRefunded', to: to.email, locale: to.locale, data: { name: to.name, amountGB: p.amountGB, amount } }, envelope.id);
    }
  }
}
