import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, ProvisioningSucceeded } from '@esim/contracts';
import { CONFIG, EventHandler } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { AccountNotices } from '../notices/account-notices.service';
import { esimReadyEmail } from './esim-ready-email';

/**
 * "Your eSIM is ready", in the user's language, with the QR code inline and the activation code to
 * type: for a new eSIM only (a top-up changes nothing on the phone). The event carries the user
 * id only; identity says where and in which language to write. The job id is the event id, so a
 * redelivery never sends twice.
 */
@EventHandler(ProvisioningSucceeded)
export class EsimReadyEventHandler implements EventHandler<typeof ProvisioningSucceeded> {
  constructor(
    private readonly notices: AccountNotices,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof ProvisioningSucceeded>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const lpaCode = p.lpaCode;
    if (p.kind !== 'new' || !lpaCode) return;
    await this.notices.email(p.userId, (to) => esimReadyEmail(to, { amountGB: p.amountGB, lpaCode }, this.config.PUBLIC_URL), {
      jobId: envelope.id,
      forgetOnDeletion: true,
    });
  }
}
