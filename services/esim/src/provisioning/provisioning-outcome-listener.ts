import type { Tx } from '@esim/platform';
import type { DeliveredLine } from './provisioning-outcomes';
import type { Provisioning } from './provisioning.entity';

export const PROVISIONING_OUTCOME_LISTENER = Symbol('PROVISIONING_OUTCOME_LISTENER');

export type ProvisioningOutcome = 'succeeded' | 'refused' | 'manual_transfer_required';

/**
 * Told of every outcome ProvisioningOutcomes records, inside the transaction that records it, so
 * that what it writes or publishes commits with the outcome: the operator queue uses it to settle
 * an operator's retry, delivery or refund (services/esim/src/operator-queue/).
 */
export interface ProvisioningOutcomeListener {
  /** `ownLine`: the delivered line is in the user's wallet (false for a refusal or a manual transfer). */
  onOutcome(tx: Tx, p: Provisioning, outcome: ProvisioningOutcome, detail: { line: DeliveredLine | null; reason: string | null; ownLine: boolean }): Promise<void>;
}
