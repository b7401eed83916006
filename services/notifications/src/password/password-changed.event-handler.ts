import { EventEnvelope, EventPayload, PasswordChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

/** Tells the owner their password changed, so a change they did not make does not go unnoticed. */
@EventHandler(PasswordChanged)
export class PasswordChangedEventHandler implements EventHandler<typeof PasswordChanged> {
  constructor(private readonly emails: EmailQueue) {}

  async handle(p: EventPayload<typeof PasswordChanged>, _tx: unknown, envelope: EventEnvelope) {
    await this.emails.enqueue({ kind: 'passwordChanged', to: p.email, locale: p.locale, data: {} }, envelope.id, p.userId);
  }
}
