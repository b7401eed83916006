import { EventEnvelope, EventPayload, VerificationCodeIssued } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

@EventHandler(VerificationCodeIssued)
export class VerificationCodeIssuedEventHandler implements EventHandler<typeof VerificationCodeIssued> {
  constructor(private readonly emails: EmailQueue) {}

  async handle(p: EventPayload<typeof VerificationCodeIssued>, _tx: unknown, envelope: EventEnvelope) {
    await this.emails.enqueue({ kind: 'verificationCode', to: p.email, locale: p.locale, data: { name: p.name, code: p.code, minutes: p.expiresInMinutes } }, envelope.id);
  }
}
