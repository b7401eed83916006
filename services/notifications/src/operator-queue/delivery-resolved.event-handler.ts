import { Inject } from '@nestjs/common';
import { DeliveryResolved, EventEnvelope, EventPayload, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/**
 * The outcome of a delivery an operator resolved, in the user's language: data added to their
 * line, or points (or a gift) given back. A new eSIM delivered is not emailed here: the
 * provisioning-succeeded event that always comes with it sends "your eSIM is ready" with its QR
 * code, and one outcome gets one email. The job id is the event id: a redelivery sends nothing.
 */
@EventHandler(DeliveryResolved)
export class DeliveryResolvedEventHandler implements EventHandler<typeof DeliveryResolved> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof DeliveryResolved>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    if (p.resolution === 'delivered' && p.kind === 'new') return;
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    const url = (path: string) => new URL(path, this.config.PUBLIC_URL).toString();
    const base = { to: to.email, locale: to.locale };
    if (p.resolution === 'delivered') {
      await this.emails.enqueue(
        { kind: 'dataDelivered', ...base, data: { name: to.name, amountGB: p.amountGB, iccid: p.iccid ?? '', appUrl: url('/esims') } },
        envelope.id,
        p.userId,
      );
    } else if (p.source === 'points') {
      await this.emails.enqueue(
        { kind: 'pointsReturned', ...base, data: { name: to.name, amountGB: p.amountGB, points: p.points, appUrl: url('/iccid') } },
        envelope.id,
        p.userId,
      );
    } else {
      await this.emails.enqueue(
        { kind: 'giftReturned', ...base, data: { name: to.name, amountGB: p.amountGB, appUrl: url('/dashboard') } },
        envelope.id,
        p.userId,
      );
    }
  }
}
