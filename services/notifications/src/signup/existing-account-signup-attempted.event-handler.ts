import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, ExistingAccountSignupAttempted } from '@esim/contracts';
import { CONFIG, EventHandler } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/** Sign-up with a taken email answers like any sign-up; only the owner hears about it, here. */
@EventHandler(ExistingAccountSignupAttempted)
export class ExistingAccountSignupAttemptedEventHandler implements EventHandler<typeof ExistingAccountSignupAttempted> {
  constructor(
    private readonly emails: EmailQueue,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof ExistingAccountSignupAttempted>, _tx: unknown, envelope: EventEnvelope) {
    const signInUrl = new URL('/auth?login=true', this.config.PUBLIC_URL).toString();
    await this.emails.enqueue({ kind: 'existingAccount', to: p.email, locale: p.locale, data: { signInUrl } }, envelope.id, p.userId);
  }
}
