import { EventPayload, PaymentSucceeded } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Provisioning } from '../provisioning/provisioning.entity';
import { ProvisioningSweeper } from '../provisioning/provisioning-sweeper';

/**
 * A card payment succeeded (payments publishes it once per PaymentIntent): record the purchase's
 * provisioning, a new eSIM for the plan and country with the purchase id as our reference with
 * KeepGo, and nothing else. The provisioning worker orders the line after this commits, exactly as
 * for a points redemption (docs/redemption.md, "The saga"), and PurchaseOutcomes answers payments
 * (PurchaseEsimIssued or PurchaseEsimFailed). KeepGo is never called inside this consumer's
 * transaction: a provider that hangs holds no database connection, and a crash leaves a
 * provisioning to resume, never an order without a record (docs/payments.md, "Issuing the eSIM").
 * The unique reference makes a redelivered event change nothing.
 */
@EventHandler(PaymentSucceeded)
export class PaymentSucceededEventHandler implements EventHandler<typeof PaymentSucceeded> {
  constructor(private readonly sweeper: ProvisioningSweeper) {}

  async handle(p: EventPayload<typeof PaymentSucceeded>, tx: Tx): Promise<void> {
    await tx.manager
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
      .execute();
    this.sweeper.wakeSoon();
  }
}
