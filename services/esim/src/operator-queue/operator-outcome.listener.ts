import { Injectable, Logger } from '@nestjs/common';
import { DeliveryResolved, maskIccid, RedeemablePlanTier, RedemptionSource } from '@esim/contracts';
import { Tx } from '@esim/platform';
import type { ProvisioningOutcome, ProvisioningOutcomeListener } from '../provisioning/provisioning-outcome-listener';
import type { DeliveredLine } from '../provisioning/provisioning-outcomes';
import type { Provisioning } from '../provisioning/provisioning.entity';

interface ActionRow {
  action: 'retry' | 'deliver' | 'refund' | 'outcome';
  admin_id: string | null;
}

/**
 * Settles an operator's action when the outcome it led to is recorded, in the same transaction:
 * the history gets the outcome, and a delivery that ended (delivered, refunded, refused) publishes
 * DeliveryResolved once, for the user's email. An outcome with no operator action pending (the
 * sweeper's ordinary work) is none of its business; a retry that ends in manual transfer again
 * only adds to the history: the delivery is back in the queue.
 */
@Injectable()
export class OperatorOutcomeListener implements ProvisioningOutcomeListener {
  private readonly log = new Logger('OperatorQueue');

  async onOutcome(
    tx: Tx,
    p: Provisioning,
    outcome: ProvisioningOutcome,
    { line, reason, ownLine }: { line: DeliveredLine | null; reason: string | null; ownLine: boolean },
  ): Promise<void> {
    const m = tx.manager;
    const [last]: ActionRow[] = await m.query(
      'SELECT action, admin_id FROM provisioning_operator_actions WHERE provisioning_id = $1 ORDER BY seq DESC LIMIT 1',
      [p.id],
    );
    if (!last || last.action === 'outcome') return;
    await m.query(`INSERT INTO provisioning_operator_actions (provisioning_id, action, admin_id, detail) VALUES ($1, 'outcome', NULL, $2)`, [
      p.id,
      reason ? `${outcome}: ${reason}` : outcome,
    ]);
    if (outcome === 'manual_transfer_required') {
      this.log.warn(`provisioning ${p.id}: the operator's ${last.action} ended in manual transfer again`);
      return;
    }
    const resolution = outcome === 'succeeded' ? 'delivered' : last.action === 'refund' ? 'refunded' : 'refused';
    tx.publish(DeliveryResolved, {
      redemptionId: p.redemptionId,
      provisioningId: p.id,
      // Only redemptions and gift claims have operator actions here (purchases are payments' queue).
      source: p.source as RedemptionSource,
      userId: p.userId,
      kind: p.kind,
      planTier: p.planTier as RedeemablePlanTier,
      amountGB: p.amountGB,
      points: p.points,
      resolution,
      // The user's email names a line outside their wallet by its masked ICCID only (docs/decisions.md).
      iccid: ownLine || p.kind === 'new' ? (line?.iccid ?? p.targetIccid) : p.targetIccid && maskIccid(p.targetIccid),
      resolvedBy: last.admin_id,
      reason,
      resolvedAt: new Date().toISOString(),
    });
    this.log.log(`provisioning ${p.id} (redemption ${p.redemptionId}): ${resolution} after the operator's ${last.action}`);
  }
}
