import type { OfferwallId, PostbackAnswer, PostbackOutcome } from '@esim/contracts';
import { OFFERWALL_PROVIDERS } from './providers';

const HTTP_STATUS: Readonly<Record<PostbackOutcome, number>> = {
  accepted: 200,
  duplicate: 200,
  ignored: 200,
  rejected_disabled: 404,
  rejected_ip: 403,
  rejected_signature: 403,
  rejected_invalid: 400,
  rejected_amount: 400,
  rejected_unknown_user: 404,
  // A reversal may overtake its credit: a non-2xx answer makes the provider retry it later.
  rejected_unknown_transaction: 404,
};

/**
 * What the provider is told. An accepted delivery, a replay included, gets the provider's own
 * acknowledgement so it stops retrying; a refused one gets an error status naming the outcome.
 * Every answer is decided here alone (signature, source address, parameters, replay, registered
 * user): it never waits for rewards.
 */
export function answerFor(provider: OfferwallId, outcome: PostbackOutcome): PostbackAnswer {
  const httpStatus = HTTP_STATUS[outcome];
  return { httpStatus, body: httpStatus === 200 ? OFFERWALL_PROVIDERS[provider].ack : outcome };
}
