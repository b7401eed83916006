import type { LineRefundState } from '@esim/contracts';
import type { LineDetails } from '../keepgo/esim-provider';

/** KeepGo's status of a line once its eSIM is on a phone (Registered before, Deactivated after). */
const INSTALLED_STATUS = 'Activated';
export const DEACTIVATED_STATUS = 'Deactivated';

/**
 * What KeepGo's line details say for a self-serve refund (docs/payments.md, "Refunds"): one rule
 * for the eligibility My eSIMs shows and for the check made when the refund is asked for. Status
 * `Activated` is installed; remaining data below the allowance is used; `Deactivated` is already
 * cancelled (a refund that stopped after cancelling the line can finish).
 */
export function lineRefundState(line: Pick<LineDetails, 'status' | 'remainingMb' | 'allowedMb'>): Exclude<LineRefundState, 'not_found' | 'unchecked'> {
  if (line.status === DEACTIVATED_STATUS) return 'cancelled';
  if (line.status === INSTALLED_STATUS) return 'installed';
  if (line.remainingMb !== null && line.allowedMb !== null && line.remainingMb < line.allowedMb) return 'used';
  return 'untouched';
}
