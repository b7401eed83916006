import { z } from 'zod';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';

/**
 * A card payment for an eSIM succeeded (once per PaymentIntent, however many confirmations and
 * webhooks arrive). esim issues a new eSIM for the country and plan, with `purchaseId` as its
 * idempotency reference, and answers with a purchase provisioning outcome.
 */
export const PaymentSucceeded = defineEvent(
  'payments',
  'payment-succeeded',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    planType: z.enum(PREPAID_PLAN_IDS),
    amountGB: z.number().int().positive(),
    country: z.enum(CHECKOUT_COUNTRIES),
    paymentIntentId: z.string(),
    amountCents: z.number().int().positive(),
  }),
);
