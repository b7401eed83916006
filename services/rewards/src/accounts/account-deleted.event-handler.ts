import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Ledger } from '../ledger/ledger';

/**
 * A deleted account keeps its ledger and task records (transaction records are kept for 7 years),
 * which hold nothing personal but the user id. Its points account is closed, so nothing more is
 * credited. (The raw postback payloads, which carry the user's IP address, live in the webhooks
 * service, which erases them on the same event.)
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  constructor(private readonly ledger: Ledger) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    await this.ledger.closeUserAccount(tx.manager, userId);
  }
}
