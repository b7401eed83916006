import { z } from 'zod';

/** What a provider is answered, in its own format (the sandbox emulator reports it back). */
export const postbackAnswerSchema = z.object({
  httpStatus: z.number().int().min(200).max(599),
  body: z.string(),
});
export type PostbackAnswer = z.infer<typeof postbackAnswerSchema>;

/**
 * How a delivery ended; every delivery is a row of webhook_transactions with one of these.
 * `accepted`: verified and handed to rewards (which credits or reverses it exactly once). The
 * ingestion service decides every other outcome alone, except the refusals rewards reports back
 * for an accepted delivery (`REWARDS_REFUSALS`).
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
