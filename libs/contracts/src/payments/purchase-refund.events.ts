import { z } from 'zod';
import { PREPAID_PLAN_IDS, PRICE_CURRENCIES } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';
import { PAYMENT_METHODS } from '../http/purchases.http';

/**
 * The buyer refunded a purchase themselves (docs/payments.md, "Refunds"): its line is cancelled
 * at the provider and Stripe refunded the payment. Once per purchase, in the transaction that
 * recorded it. notifications emails the buyer.
 */
export const PurchaseRefunded = defineEvent(
  'payments',
  'purchase-refunded',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    planType: z.enum(PREPAID_PLAN_IDS),
    amountGB: z.number().int().positive(),
    /** Minor units of `currency`: the whole payment. */
    amountMinor: z.number().int().positive(),
    currency: z.enum(PRICE_CURRENCIES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    stripeRefundId: z.string(),
    refundedAt: z.string().datetime(),
  }),
);
