import { EventPayload, PointsReserved } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Provisioning } from '../provisioning/provisioning.entity';
import { ProvisioningSweeper } from '../provisioning/provisioning-sweeper';

/**
 * Rewards reserved the points of a redemption: record its provisioning (one per redemption, the
 * redemption id being our reference with the provider). The provider is called by the sweeper's
 * worker after this commits, never inside the consumer's transaction: a crash can then leave a
 * provisioning without an outcome, but never a provider call without a provisioning.
 */
@EventHandler(PointsReserved)
export class PointsReservedEventHandler implements EventHandler<typeof PointsReserved> {
  constructor(private readonly sweeper: ProvisioningSweeper) {}

  async handle(p: EventPayload<typeof PointsReserved>, tx: Tx): Promise<void> {
    const topup = p.purchaseType === 'existing';
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(Provisioning)
      .values({
        redemptionId: p.redemptionId,
        userId: p.userId,
        source: 'points',
        kind: topup ? 'topup' : 'new',
        planTier: p.planTier,
        amountGB: p.amountGB,
        points: p.points,
        country: topup ? null : p.country,
        targetIccid: topup ? p.iccid : null,
      })
      .orIgnore()
      .execute();
    this.sweeper.wakeSoon();
  }
}
