import { z } from 'zod';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';
import { PAYMENTS_REFUSALS } from '../webhooks/postbacks';

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

/**
 * Payments did not apply a Stripe event the ingestion service accepted (webhooks.stripe-event-accepted.v1):
 * no purchase of ours is paid by its PaymentIntent, or the intent does not pay the purchase (amount,
 * currency, metadata, status). Published in the transaction that decided it, once per accepted
 * event (the inbox). The ingestion service records the outcome and the reason against the delivery
 * (webhook_transactions), where operators look for every Stripe event's fate.
 */
export const StripeEventRefused = defineEvent(
  'payments',
  'stripe-event-refused',
  1,
  z.object({
    /** The webhook_transactions row of the accepted delivery (StripeEventAccepted's deliveryId). */
    deliveryId: z.string().uuid(),
    /** Stripe's event id (`evt_…`). */
    eventId: z.string().min(1).max(255),
    outcome: z.enum(PAYMENTS_REFUSALS),
    /** Why, for operators: the PaymentIntent, and what did not match. */
    reason: z.string().min(1).max(500),
    refusedAt: z.string().datetime(),
  }),
);
