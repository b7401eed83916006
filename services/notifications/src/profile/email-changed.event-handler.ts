import { EmailChanged, EventEnvelope, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

/**
 * Tells the OLD address, in the account's language, that the account's email changed and to what:
 * if someone else made the change, the owner still hears of it at the address they know.
 */
@EventHandler(EmailChanged)
export class EmailChangedEventHandler implements EventHandler<typeof EmailChanged> {
  constructor(private readonly emails: EmailQueue) {}

  async handle(p: EventPayload<typeof EmailChanged>, _tx: unknown, envelope: EventEnvelope) {
    await this.emails.enqueue(
      { kind: 'emailChanged', to: p.previousEmail, locale: p.locale, data: { newEmail: p.email } },
      envelope.id,
      p.userId,
    );
  }
}
