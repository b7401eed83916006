import { EventEnvelope, EventPayload, PasswordResetRequested } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

@EventHandler(PasswordResetRequested)
export class PasswordResetRequestedEventHandler implements EventHandler<typeof PasswordResetRequested> {
  constructor(private readonly emails: EmailQueue) {}

  async handle(p: EventPayload<typeof PasswordResetRequested>, _tx: unknown, envelope: EventEnvelope) {
    await this.emails.enqueue(
      { kind: 'passwordReset', to: p.email, locale: p.locale, data: { name: p.name, resetUrl: p.resetUrl } },
      envelope.id,
      p.userId,
    );
  }
}
