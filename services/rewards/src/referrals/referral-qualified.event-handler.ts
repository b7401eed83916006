import { EventPayload, ReferralQualified } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Referrals } from './referrals.service';

/**
 * A referred friend qualified (announced by the transaction that made their points spendable):
 * both bonuses are paid here, in a transaction of its own that takes both accounts in order, once
 * per friend however often this is announced (the inbox, the referral's row lock and the ledger's
 * unique references).
 */
@EventHandler(ReferralQualified)
export class ReferralQualifiedEventHandler implements EventHandler<typeof ReferralQualified> {
  constructor(private readonly referrals: Referrals) {}

  handle({ friendId }: EventPayload<typeof ReferralQualified>, tx: Tx): Promise<void> {
    return this.referrals.pay(tx, friendId);
  }
}
