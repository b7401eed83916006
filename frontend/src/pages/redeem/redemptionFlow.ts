import type { PurchaseType, RedemptionStatus } from '@esim/contracts';
import type { PlanAccess } from './gifts';

/** The two calls of docs/redemption.md: spend points, or claim a data gift an admin granted. */
export type RedeemCall = 'redeem-points' | 'gift-data';

/** What pays when both a gift and the balance could: the person's choice on /iccid, the gift by default. */
export type PayWith = 'gift' | 'points';

/**
 * docs/redemption-screens.md: a plan only points can pay is redeem-points; one a gift covers is
 * gift-data ("claim free data"), also when the balance would cover it too, unless the person
 * chose to pay with points. A locked plan cannot be chosen. The server enforces both rules.
 */
export function chooseRedeemCall(access: PlanAccess, payWith: PayWith = 'gift'): RedeemCall {
  if (access === 'points') return 'redeem-points';
  if (access === 'both') return payWith === 'points' ? 'redeem-points' : 'gift-data';
  return 'gift-data';
}

export type SubmitLabel = 'processing' | 'purchase' | 'addData' | 'claimFree';

/** The submit button's three texts (spec, /iccid): 'processing', '{purchase|add data} - N Points', 'claim free data'. */
export function submitLabel(pending: boolean, call: RedeemCall, purchaseType: PurchaseType): SubmitLabel {
  if (pending) return 'processing';
  if (call === 'gift-data') return 'claimFree';
  return purchaseType === 'new' ? 'purchase' : 'addData';
}

export type RedemptionRoute = 'activation' | 'manual' | 'processing' | 'review' | 'failed' | 'success';

/**
 * Where a redemption's answer takes the person (spec section 4, "Redemption result by status"):
 * a new eSIM to its setup page, a stuck delivery to /success after the server's message, a
 * still-running saga to a "lands later" message, one the risk rules hold for an admin to a
 * "waiting for approval" message (docs/earning.md, "Risk rules"), and any other success to /success.
 */
export function routeRedemption(status: RedemptionStatus | string): RedemptionRoute {
  switch (status) {
    case 'esim_activation_ready':
      return 'activation';
    case 'manual_transfer_required':
      return 'manual';
    case 'processing':
      return 'processing';
    case 'pending_review':
      return 'review';
    case 'failed':
    case 'rejected':
      return 'failed';
    default:
      return 'success';
  }
}

/** Spec section 9: the setup page opens 1.5 s after "eSIM ready", so the toast can be read. */
export const ACTIVATION_REDIRECT_MS = 1500;
/** Spec section 8: redemption failures stay 10 s. */
export const REDEMPTION_ERROR_TOAST_MS = 10_000;
