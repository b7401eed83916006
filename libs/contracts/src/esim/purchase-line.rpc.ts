import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/**
 * Why a bought eSIM's line cannot be cancelled for a refund, as the provider reports the line:
 * `installed` (KeepGo says Activated: the eSIM is on a phone), `used` (data was spent), or
 * `not_found` (the provider does not know the line).
 */
export const LINE_NOT_CANCELLED_REASONS = ['installed', 'used', 'not_found'] as const;

/**
 * What the provider's latest report says of a bought eSIM's line, for refund eligibility:
 * `untouched` (never installed, no data used: refundable), `cancelled` (deactivated already: a
 * refund under way can finish), one of LINE_NOT_CANCELLED_REASONS, or `unchecked` (the provider
 * could not be asked and nothing recent is known).
 */
export const LINE_REFUND_STATES = ['untouched', 'cancelled', ...LINE_NOT_CANCELLED_REASONS, 'unchecked'] as const;
export type LineRefundState = (typeof LINE_REFUND_STATES)[number];

/** esim's answers about a bought eSIM's line, for self-serve refunds (docs/payments.md, "Refunds"). */
export const PurchaseLineRpc = {
  /**
   * Cancels the line at the provider if it was never installed nor used; otherwise says why not
   * and changes nothing. A line already deactivated counts as cancelled (a retried refund).
   */
  cancelUnusedLine: defineRpc(
    'esim',
    'cancel-unused-line',
    z.object({ purchaseId: z.string().uuid(), iccid: z.string().min(1).max(32) }),
    z.object({ cancelled: z.boolean(), reason: z.enum(LINE_NOT_CANCELLED_REASONS).nullable(), providerStatus: z.string().nullable() }),
  ),
  /**
   * The provider's report of each bought line (a recent reading reused, as My eSIMs' usage is),
   * changing nothing: whether My eSIMs offers a refund before the buyer asks.
   */
  lineRefundStates: defineRpc(
    'esim',
    'line-refund-states',
    z.object({ iccids: z.array(z.string().min(1).max(32)).max(200) }),
    z.object({ lines: z.array(z.object({ iccid: z.string(), state: z.enum(LINE_REFUND_STATES) })) }),
  ),
} as const;
