import { Injectable } from '@nestjs/common';
import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Ledger } from '../ledger/ledger';
import { WebhookTransactions } from '../postbacks/webhook-transactions';

/**
 * A deleted account keeps its ledger and task records (transaction records are kept for 7 years),
 * which hold nothing personal but the user id. Its points account is closed, so nothing more is
 * credited, and the raw postback payloads, which carry the user's IP address, are erased.
 */
@Injectable()
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  readonly event = AccountDeleted;

  constructor(
    private readonly ledger: Ledger,
    private readonly webhooks: WebhookTransactions,
  ) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    await this.ledger.closeUserAccount(tx.manager, userId);
    await this.webhooks.erasePayloadsOf(tx.manager, userId);
  }
}
