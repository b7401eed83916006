import { Logger } from '@nestjs/common';
import { EventPayload, PaymentSucceeded } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Provisioning } from '../provisioning/provisioning.entity';
import { ProvisioningSweeper } from '../provisioning/provisioning-sweeper';
import { PurchaseOutcomes } from './purchase-outcomes';

/**
 * A card payment succeeded (payments publishes it once per PaymentIntent): record the purchase's
 * provisioning, a new eSIM for the plan and country with the purchase id as our reference with
 * KeepGo, and nothing else. The provisioning worker orders the line after this commits, exactly as
 * for a points redemption (docs/redemption.md, "The saga"), and PurchaseOutcomes answers payments
 * (PurchaseEsimIssued or PurchaseEsimFailed). KeepGo is never called inside this consumer's
 * transaction: a provider that hangs holds no database connection, and a crash leaves a
 * provisioning to resume, never an order without a record (docs/payments.md, "Issuing the eSIM").
 *
 * payments publishes it again when an operator retries the purchase (its operator queue): a
 * provisioning that ended without an eSIM is then due again, under the same reference (the
 * operator has checked KeepGo, so the order may be sent again); one under way is left to finish;
 * one that succeeded answers again, for a purchase whose answer went astray.
 */
@EventHandler(PaymentSucceeded)
export class PaymentSucceededEventHandler implements EventHandler<typeof PaymentSucceeded> {
  private readonly log = new Logger('Purchases');

  constructor(
    private readonly sweeper: ProvisioningSweeper,
    private readonly purchases: PurchaseOutcomes,
  ) {}

  async handle(p: EventPayload<typeof PaymentSucceeded>, tx: Tx): Promise<void> {
    const m = tx.manager;
    const inserted = await m
      .createQueryBuilder()
      .insert()
      .into(Provisioning)
      .values({
        redemptionId: p.purchaseId,
        userId: p.userId,
        source: 'purchase',
        kind: 'new',
        planTier: p.planType,
        amountGB: p.amountGB,
        points: 0,
        country: p.country,
        targetIccid: null,
      })
      .orIgnore()
      .returning('id')
      .execute();
    if ((inserted.raw as unknown[]).length === 0) {
      const earlier = await m.findOne(Provisioning, { where: { redemptionId: p.purchaseId, source: 'purchase' }, lock: { mode: 'pessimistic_write' } });
      if (!earlier) throw new Error(`purchase ${p.purchaseId}: its reference is taken by a redemption`);
      if (earlier.status === 'succeeded') {
        await this.purchases.issuedAgain(tx, earlier);
        return;
      }
      if (earlier.status !== 'refused' && earlier.status !== 'manual_transfer_required') return;
      await m.query(
        `UPDATE provisionings SET status = 'pending', lease_until = now(), completed_at = NULL, failure_reason = NULL, failure_message = NULL,
                                  order_sent_at = NULL WHERE id = $1`,
        [earlier.id],
      );
      this.log.warn(`purchase ${p.purchaseId}: ordered again (an operator's retry)`);
    }
    this.sweeper.wakeSoon();
  }
}
