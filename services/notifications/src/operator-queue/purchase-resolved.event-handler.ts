import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, PurchaseResolved } from '@esim/contracts';
import { CONFIG, EventHandler } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { AccountNotices } from '../notices/account-notices.service';
import { esimReadyEmail } from '../redemptions/esim-ready-email';

/**
 * The outcome of a card purchase an operator resolved, in the user's language: the eSIM delivered
 * by hand ("your eSIM is ready", QR inline), or the card refunded. One email per outcome: the job
 * id is the event id.
 */
@EventHandler(PurchaseResolved)
export class PurchaseResolvedEventHandler implements EventHandler<typeof PurchaseResolved> {
  constructor(
    private readonly notices: AccountNotices,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof PurchaseResolved>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const options = { jobId: envelope.id, forgetOnDeletion: true };
    const lpaCode = p.lpaCode;
    if (p.resolution === 'delivered' && lpaCode) {
      await this.notices.email(p.userId, (to) => esimReadyEmail(to, { amountGB: p.amountGB, lpaCode }, this.config.PUBLIC_URL), options);
      return;
    }
    if (p.resolution === 'refunded') {
      const amount = `${(p.amountCents / 100).toFixed(2)} ${p.currency.toUpperCase()}`;
      await this.notices.email(p.userId, (to) => ({ kind: 'purchaseRefunded', data: { name: to.name, amountGB: p.amountGB, amount } }), options);
    }
  }
}
