import { z } from 'zod';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';

/**
 * A card purchase that waited for a person ended: its eSIM delivered by hand, or the card refunded
 * through Stripe. esim adds a delivered line to the user's wallet; notifications emails the user.
 */
export const PurchaseResolved = defineEvent(
  'payments',
  'purchase-resolved',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    planType: z.enum(PREPAID_PLAN_IDS),
    amountGB: z.number().int().positive(),
    country: z.enum(CHECKOUT_COUNTRIES),
    resolution: z.enum(['delivered', 'refunded']),
    iccid: z.string().nullable(),
    lpaCode: z.string().nullable(),
    amountCents: z.number().int().positive(),
    currency: z.string(),
    refundId: z.string().nullable(),
    resolvedBy: z.string().uuid(),
    resolvedAt: z.string().datetime(),
  }),
);
