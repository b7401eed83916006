import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';

/**
 * A deleted account is written to no more: its emails still queued (and the stripped records of
 * those sent or abandoned) leave the queue (docs/accounts.md, "Deletion"). Removing what is gone
 * already removes nothing, so a replayed event changes nothing.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  constructor(private readonly emails: EmailQueue) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>): Promise<void> {
    await this.emails.forget(userId);
  }
}
