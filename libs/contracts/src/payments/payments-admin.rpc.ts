import { z } from 'zod';
import { iccidSchema } from '../http/redemption.http';
import { defineAdminRpc } from '../rpc/rpc-definition';
import { PREPAID_PLAN_IDS, PRICE_CURRENCIES } from '../catalogue/plans';
import { PAYMENT_METHODS } from '../http/purchases.http';
import { lpaCodeSchema, OPERATOR_ACTIONS, operatorQueueItemSchema, operatorQueueListRequestSchema, operatorResolutionSchema } from '../admin/operator-queue';

/** A self-serve refund as operators see it (docs/payments.md, "Refunds"). */
export const purchaseRefundRecordSchema = z.object({
  purchaseId: z.string().uuid(),
  userId: z.string().uuid(),
  planType: z.enum(PREPAID_PLAN_IDS),
  amount: z.number().int(),
  currency: z.enum(PRICE_CURRENCIES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  status: z.enum(['pending', 'succeeded']),
  stripeRefundId: z.string().nullable(),
  requestedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PurchaseRefundRecord = z.infer<typeof purchaseRefundRecordSchema>;

/** Operator actions on card purchases; the acting admin travels as meta.userId. */
export const PaymentsAdminRpc = {
  /** Paid purchases whose eSIM needs a person, oldest wait first. */
  listOperatorQueue: defineAdminRpc(
    'payments',
    'admin-list-operator-queue',
    operatorQueueListRequestSchema,
    z.object({ items: z.array(operatorQueueItemSchema) }),
  ),
  /** Self-serve refunds, newest first. */
  listRefunds: defineAdminRpc(
    'payments',
    'admin-list-refunds',
    z.object({ limit: z.number().int().min(1).max(500) }),
    z.object({ refunds: z.array(purchaseRefundRecordSchema) }),
  ),
  /**
   * Retries the eSIM order, records an eSIM delivered by hand, or refunds the card through Stripe
   * (our idempotency key): exactly once, whoever asks.
   */
  resolvePurchase: defineAdminRpc(
    'payments',
    'admin-resolve-purchase',
    z.object({ purchaseId: z.string().uuid(), action: z.enum(OPERATOR_ACTIONS), iccid: iccidSchema.optional(), lpaCode: lpaCodeSchema.optional() }),
    operatorResolutionSchema,
  ),
} as const;
