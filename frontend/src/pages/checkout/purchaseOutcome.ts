import type { PurchaseConfirmation } from '@esim/contracts';

/** What /success shows for a card purchase (spec section 2, /success; section 8, "Purchase confirmation"). */
export type PurchaseView =
  | { kind: 'purchased'; planType: string; amountGB: number; iccid: string; lpaCode: string; qrCode: string | null }
  /** Paid, the eSIM is still being issued (the server's wait ran out). */
  | { kind: 'processing'; planType: string; amountGB: number; message: string }
  | {
      kind: 'failed';
      /** The server's message followed by its support message; null: say 'Failed to confirm purchase'. */
      text: string | null;
      /** The payment went through (the eSIM did not): the 'eSIM Processing Issue' toast applies. */
      paid: boolean;
      /** The eSIM waits for manual delivery (the provisioning outage): add the manual-delivery sentence. */
      manualDelivery: boolean;
    };

const joined = (...parts: Array<string | null | undefined>) =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' ') || null;

/** The view of a confirmation the server answered (HTTP 200). */
export function viewOfConfirmation(c: PurchaseConfirmation): PurchaseView {
  if (c.success && c.status === 'activated' && c.iccid && c.lpaCode) {
    return { kind: 'purchased', planType: c.planType, amountGB: c.amountGB, iccid: c.iccid, lpaCode: c.lpaCode, qrCode: c.qrCode };
  }
  if (c.success) return { kind: 'processing', planType: c.planType, amountGB: c.amountGB, message: c.message };
  return {
    kind: 'failed',
    text: joined(c.message, c.support_message),
    paid: c.status === 'manual_delivery_required',
    manualDelivery: c.status === 'manual_delivery_required',
  };
}

/**
 * The view of a refused or failed confirm call (404, 403, 409, 502, network): `message` is its text
 * in the user's language (useErrorText), if there is one. No eSIM waits for manual delivery then.
 */
export function viewOfError(message: string | null): PurchaseView {
  return { kind: 'failed', text: joined(message), paid: false, manualDelivery: false };
}

/** `/esim-activation?iccid=…&lpa=…` (spec: 'Set Up eSIM' and My eSIMs' 'Setup Guide'). */
export function activationPath(iccid: string | null, lpaCode: string): string {
  const query = new URLSearchParams();
  if (iccid) query.set('iccid', iccid);
  query.set('lpa', lpaCode);
  return `/esim-activation?${query.toString()}`;
}
