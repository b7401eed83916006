import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, PurchaseResolved, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';
import { esimReadyEmail } from '../redemptions/esim-ready-email';

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
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    if (p.resolution === 'delivered' && p.lpaCode) {
      await this.emails.enqueue(
        await esimReadyEmail(to, { amountGB: p.amountGB, lpaCode: p.lpaCode }, this.config.PUBLIC_URL),
        envelope.id,
        p.userId,
      );
      return;
    }
    if (p.resolution === 'refunded') {
      const amount = `${(p.amountCents / 100).toFixed(2)} ${p.currency.toUpperCase()}`;
      await this.emails.enqueue(
        { kind: 'purchaseRefunded', to: to.email, locale: to.locale, data: { name: to.name, amountGB: p.amountGB, amount } },
        envelope.id,
        p.userId,
      );
    }
  }
}
