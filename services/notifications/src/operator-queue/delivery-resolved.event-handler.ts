import { DeliveryResolved, EventEnvelope, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { AccountNotices, EmailContent, Recipient } from '../notices/account-notices.service';

/**
 * The outcome of a delivery an operator resolved, in the user's language: data added to their
 * line, or points (or a gift) given back. A new eSIM delivered is not emailed here: the
 * provisioning-succeeded event that always comes with it sends "your eSIM is ready" with its QR
 * code, and one outcome gets one email. The job id is the event id: a redelivery sends nothing.
 */
@EventHandler(DeliveryResolved)
export class DeliveryResolvedEventHandler implements EventHandler<typeof DeliveryResolved> {
  constructor(private readonly notices: AccountNotices) {}

  async handle(p: EventPayload<typeof DeliveryResolved>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    if (p.resolution === 'delivered' && p.kind === 'new') return;
    const url = (path: string) => this.notices.url(path);
    const compose = (to: Recipient): EmailContent =>
      p.resolution === 'delivered'
        ? { kind: 'dataDelivered', data: { name: to.name, amountGB: p.amountGB, iccid: p.iccid ?? '', appUrl: url('/esims') } }
        : p.source === 'points'
          ? { kind: 'pointsReturned', data: { name: to.name, amountGB: p.amountGB, points: p.points, appUrl: url('/iccid') } }
          : { kind: 'giftReturned', data: { name: to.name, amountGB: p.amountGB, appUrl: url('/dashboard') } };
    await this.notices.email(p.userId, compose, { jobId: envelope.id, forgetOnDeletion: true });
  }
}
