import { z } from 'zod';

/** What a provider is answered, in its own format (the sandbox emulator reports it back). */
export const postbackAnswerSchema = z.object({
  httpStatus: z.number().int().min(200).max(599),
  body: z.string(),
});
export type PostbackAnswer = z.infer<typeof postbackAnswerSchema>;

/**
 * How an offer-wall delivery ended, and what the provider is answered; every delivery is a row of
 * webhook_transactions with one of these (or, for a Stripe event payments refused, one of
 * `PAYMENTS_REFUSALS`: `WebhookOutcome`). `accepted`: verified and handed to rewards (which
 * credits or reverses it exactly once). The ingestion service decides every other outcome alone,
 * except the refusals rewards reports back for an accepted delivery (`REWARDS_REFUSALS`).
 */
export const POSTBACK_OUTCOMES = [
  'accepted',
  'duplicate',
  'ignored',
  'rejected_disabled',
  'rejected_ip',
  'rejected_signature',
  'rejected_invalid',
  'rejected_amount',
  'rejected_unknown_user',
  'rejected_unknown_transaction',
] as const;
export type PostbackOutcome = (typeof POSTBACK_OUTCOMES)[number];

/**
 * What rewards may report back for a delivery it was handed: the user's points account is closed
 * (or the credit is for nobody it can credit), the credit a reversal names was never applied, or
 * the ledger already held this credit or reversal.
 */
export const REWARDS_REFUSALS = ['rejected_unknown_user', 'rejected_unknown_transaction', 'duplicate'] as const;
export type RewardsRefusal = (typeof REWARDS_REFUSALS)[number];

/**
 * What payments may report back for a Stripe event it was handed and did not apply: no purchase of
 * ours is paid by the event's PaymentIntent (`rejected_unknown_payment`), or the intent does not pay
 * the purchase it names: amount, amount received, currency, purchase or user in its metadata, or a
 * `payment_intent.succeeded` whose intent is not `succeeded` (`rejected_payment_mismatch`). Never
 * a provider's answer: Stripe was answered when the event was accepted.
 */
export const PAYMENTS_REFUSALS = ['rejected_unknown_payment', 'rejected_payment_mismatch'] as const;
export type PaymentsRefusal = (typeof PAYMENTS_REFUSALS)[number];

/** Every outcome a webhook_transactions row can hold (its `status`). */
export type WebhookOutcome = PostbackOutcome | PaymentsRefusal;
