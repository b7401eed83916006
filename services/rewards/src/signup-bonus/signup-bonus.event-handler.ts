import { Logger } from '@nestjs/common';
import { EventPayload, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';
import { Referrals } from '../referrals/referrals.service';

/**
 * A verified sign-up opens the user's points account and credits the bonus. Exactly once per
 * user: the inbox skips a redelivered event, and the ledger's unique (kind, reference = userId)
 * turns any other copy of the event into a no-op. The user's AccountDeleted may have been applied
 * first (the events travel independently): the account is then already closed and stays so, with
 * no bonus — a success, not a failure to retry. A sign-up with a friend's code records the
 * referral (docs/earning.md, "Referrals").
 */
@EventHandler(UserRegistered)
export class SignupBonusEventHandler implements EventHandler<typeof UserRegistered> {
  private readonly log = new Logger('SignupBonus');

  constructor(
    private readonly ledger: Ledger,
    private readonly balances: BalanceAnnouncements,
    private readonly referrals: Referrals,
  ) {}

  async handle({ userId, referral }: EventPayload<typeof UserRegistered>, tx: Tx): Promise<void> {
    const account = await this.ledger.openUserAccount(tx.manager, userId);
    if (account.closed) {
      this.log.log(`no sign-up bonus for ${userId}: the account was deleted before its registration arrived`);
      return;
    }
    await this.balances.lock(tx.manager, [userId]);
    const { created } = await this.ledger.credit(tx.manager, {
      kind: 'signup_bonus',
      from: 'signup_bonus',
      userId,
      amount: SIGNUP_BONUS_POINTS,
      reference: userId,
    });
    if (referral) await this.referrals.record(tx.manager, userId, referral);
    if (created) await this.balances.announce(tx, [userId]);
  }
}
