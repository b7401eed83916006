import { Injectable } from '@nestjs/common';
import { EventPayload, SIGNUP_BONUS_POINTS, UserRegistered } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Ledger } from '../ledger/ledger';

/**
 * A verified sign-up opens the user's points account and credits the bonus. Exactly once per
 * user: the inbox skips a redelivered event, and the ledger's unique (kind, reference = userId)
 * turns any other copy of the event into a no-op.
 */
@Injectable()
export class SignupBonusEventHandler implements EventHandler<typeof UserRegistered> {
  readonly event = UserRegistered;

  constructor(private readonly ledger: Ledger) {}

  async handle({ userId }: EventPayload<typeof UserRegistered>, tx: Tx): Promise<void> {
    await this.ledger.openUserAccount(tx.manager, userId);
    await this.ledger.credit(tx.manager, {
      kind: 'signup_bonus',
      from: 'signup_bonus',
      userId,
      amount: SIGNUP_BONUS_POINTS,
      reference: userId,
    });
  }
}
