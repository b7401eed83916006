import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, ProvisioningSucceeded, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';
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
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof ProvisioningSucceeded>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    if (p.kind !== 'new' || !p.lpaCode) return;
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    await this.emails.enqueue(
      await esimReadyEmail(to, { amountGB: p.amountGB, lpaCode: p.lpaCode }, this.config.PUBLIC_URL),
      envelope.id,
      p.userId,
    );
  }
}
