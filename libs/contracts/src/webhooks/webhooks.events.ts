import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { TASK_KINDS, TASK_TYPES } from '../rewards/tasks';
import { OFFERWALL_IDS } from './offerwalls';

/** One accepted offer-wall postback of OfferwallPostbacksAccepted. */
const acceptedPostback = z.object({
  /** The webhook_transactions row of this delivery. */
  deliveryId: z.string().uuid(),
  provider: z.enum(OFFERWALL_IDS),
  action: z.enum(['credit', 'reverse']),
  /** This delivery's own provider transaction id. */
  transactionId: z.string().min(1).max(128),
  /** The provider transaction credited, or taken back by a reversal (BitLabs reversals have their own id). */
  creditTransactionId: z.string().min(1).max(128),
  userId: z.string().uuid(),
  /** Whole points (1 point = 1 MB) of a credit; a reversal's stated amount, informative only. */
  points: z.number().int().nonnegative(),
  taskType: z.enum(TASK_TYPES),
  /**
   * What the person did, read from the wall's category where the postback is parsed (TASK_KINDS).
   * Optional so that postbacks accepted before kinds existed still parse: rewards reads those as
   * their taskType's kind (KIND_OF_TASK_TYPE).
   */
  kind: z.enum(TASK_KINDS).optional(),
  /** The offer's name, where the wall's postback carries one (shown in the user's history). */
  offerName: z.string().min(1).max(200).optional(),
  /** A reversal's reason as the wall states it, where its postback carries one (shown with the reversal). */
  reversalReason: z.string().min(1).max(500).optional(),
});

/** The most postbacks one OfferwallPostbacksAccepted carries (the ingestion service writes at most this many deliveries a statement). */
export const MAX_POSTBACKS_PER_EVENT = 500;

/**
 * Offer-wall postbacks that passed every check the ingestion service makes alone (wall, source
 * address, signature, fields, amount cap, a registered user, not a replay) and were recorded
 * together, by one statement of the ingestion service: one event for all of them, credits before
 * reversals. At most one credit and one reversal per provider transaction are ever accepted.
 * Rewards credits a `credit` once per (provider, creditTransactionId), takes a `reverse` back
 * once, and reports refusals per delivery with rewards.offerwall-postback-refused.v1.
 *
 * Why one event for many: in a burst of postbacks (bench/postbacks.bench.mjs) an event per
 * delivery cost an outbox row, its update once published, an envelope to build, send, parse and
 * check, and an inbox row, each time.
 */
export const OfferwallPostbacksAccepted = defineEvent(
  'webhooks',
  'offerwall-postbacks-accepted',
  1,
  z.object({
    postbacks: z.array(acceptedPostback).min(1).max(MAX_POSTBACKS_PER_EVENT),
    acceptedAt: z.string().datetime(),
  }),
);

/** One postback of OfferwallPostbacksAccepted. */
export type AcceptedPostback = z.infer<typeof acceptedPostback>;

/**
 * A Stripe webhook event whose signature verified (the official SDK's constructEvent, on the exact
 * bytes received) and that was recorded for the first time: at most one per Stripe event id. The
 * PaymentIntent fields are the ones payments acts on; payments applies the event exactly once
 * (fulfils a `payment_intent.succeeded`, records the decline of a `payment_intent.payment_failed`,
 * leaves the rest), and reports an intent it knows no purchase for, or one that does not pay its
 * purchase, with payments.stripe-event-refused.v1.
 */
export const StripeEventAccepted = defineEvent(
  'webhooks',
  'stripe-event-accepted',
  1,
  z.object({
    /** The webhook_transactions row of this delivery. */
    deliveryId: z.string().uuid(),
    /** Stripe's event id (`evt_…`). */
    eventId: z.string().min(1).max(255),
    /** Stripe's event type, e.g. `payment_intent.succeeded`. */
    type: z.string().min(1).max(255),
    /** The event's PaymentIntent (`data.object`) for `payment_intent.*` events; null otherwise. */
    paymentIntent: z
      .object({
        id: z.string().min(1).max(255),
        status: z.string().max(100),
        /** In the currency's smallest unit, as Stripe states it. */
        amount: z.number().int(),
        amountReceived: z.number().int(),
        currency: z.string().max(10),
        metadata: z.record(z.string(), z.string()),
        /** `last_payment_error` of a failed payment: its codes and message. */
        lastPaymentError: z.object({ code: z.string().nullable(), declineCode: z.string().nullable(), message: z.string().nullable() }).nullable(),
      })
      .nullable(),
    acceptedAt: z.string().datetime(),
  }),
);
