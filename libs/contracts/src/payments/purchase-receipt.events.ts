import { z } from 'zod';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS, PRICE_CURRENCIES } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';
import { PAYMENT_METHODS } from '../http/purchases.http';

/**
 * A paid purchase has its eSIM (issued by the provider, or delivered by an operator): once per
 * purchase, in the transaction that activated it. notifications emails the buyer a receipt in
 * their language (docs/payments.md, "Receipts").
 */
export const PurchaseCompleted = defineEvent(
  'payments',
  'purchase-completed',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    planType: z.enum(PREPAID_PLAN_IDS),
    amountGB: z.number().int().positive(),
    validityDays: z.number().int().positive(),
    country: z.enum(CHECKOUT_COUNTRIES),
    /** Minor units of `currency`, as charged (the catalogue's price). */
    amountMinor: z.number().int().positive(),
    currency: z.enum(PRICE_CURRENCIES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    paidAt: z.string().datetime(),
    iccid: z.string(),
  }),
);
