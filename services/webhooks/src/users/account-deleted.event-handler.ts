import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler, OutboxErasure, Tx } from '@esim/platform';
import { WebhookTransactions } from '../postbacks/webhook-transactions.service';
import { RegisteredUsers } from './registered-users.service';

/**
 * A deleted user's later postbacks are refused as an unknown user, and the raw payloads of their
 * earlier ones, which carry their IP address, are erased, and so are the published events that named
 * them; outcomes and amounts stay.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  constructor(
    private readonly users: RegisteredUsers,
    private readonly transactions: WebhookTransactions,
  ) {}

  async handle({ userId, deletedAt }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    await this.users.deleted(tx.manager, userId, new Date(deletedAt));
    await this.transactions.erasePayloadsOf(tx.manager, userId);
    await OutboxErasure.erase(tx.manager, [userId]);
  }
}
