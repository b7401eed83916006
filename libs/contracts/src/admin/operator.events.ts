import { z } from 'zod';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS, REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';

/**
 * A delivery that waited for a person ended: delivered by hand, or after an operator's retry
 * (`delivered`); points released / gift claimable again by an operator (`refunded`); or refused by
 * the provider on an operator's retry (`refused`, points or gift given back the same way).
 * Notifications emails the user the outcome (a new eSIM delivered is told by the eSIM-ready email
 * of esim.provisioning-succeeded, which always accompanies it).
 */
export const DeliveryResolved = defineEvent(
  'esim',
  'delivery-resolved',
  1,
  z.object({
    redemptionId: z.string().uuid(),
    provisioningId: z.string().uuid(),
    source: z.enum(['points', 'gift']),
    userId: z.string().uuid(),
    kind: z.enum(['new', 'topup']),
    planTier: z.enum(REDEEMABLE_PLAN_TIERS),
    amountGB: z.number().int().positive(),
    points: z.number().int().nonnegative(),
    resolution: z.enum(['delivered', 'refunded', 'refused']),
    iccid: z.string().nullable(),
    /** The admin who acted; null when the provider's own answer (after a retry) settled it. */
    resolvedBy: z.string().uuid().nullable(),
    reason: z.string().nullable(),
    resolvedAt: z.string().datetime(),
  }),
);

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
