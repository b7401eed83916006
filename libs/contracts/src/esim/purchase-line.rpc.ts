import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/**
 * Why a bought eSIM's line cannot be cancelled for a refund, as the provider reports the line:
 * `installed` (KeepGo says Activated: the eSIM is on a phone), `used` (data was spent), or
 * `not_found` (the provider does not know the line).
 */
export const LINE_NOT_CANCELLED_REASONS = ['installed', 'used', 'not_found'] as const;

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
} as const;
