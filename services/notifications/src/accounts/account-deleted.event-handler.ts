import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { EmailQueue } from '../mail/email-queue';
import { SentEmails } from '../sent-emails/sent-emails';

/**
 * A deleted account is written to no more: its emails still queued (and the stripped records of
 * those sent or abandoned) leave the queue, its push subscriptions go, and the record of what was sent to it goes (docs/accounts.md, "Deletion"). Removing what is gone
 * already removes nothing, so a replayed event changes nothing.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly sent: SentEmails,
  ) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    await this.sent.forget(tx.manager, userId);
    // Its browsers' push subscriptions (docs/wallet.md, "Web Push") address the person's devices.
    await tx.manager.query('DELETE FROM push_subscriptions WHERE user_id = $1', [userId]);
    // Which weeks' promotional digests went to the person.
    await tx.manager.query('DELETE FROM marketing_digests WHERE user_id = $1', [userId]);
    await this.emails.forget(userId);
  }
}
