import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler, OutboxErasure, Tx } from '@esim/platform';

/**
 * Identity hears its own AccountDeleted once the relay has published it, and with it what identity
 * wrote about the person just before the deletion (a profile change still unpublished when the
 * deletion ran, delete-account.rpc-handler.ts): those published rows name the user and go now.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    await OutboxErasure.erase(tx.manager, [userId]);
  }
}
