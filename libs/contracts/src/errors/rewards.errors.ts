import { declareError, detailsOf } from './error-declaration';

/**
 * The points ledger, redemptions and the operator queue's shared answers (the rewards, esim and
 * payments queues answer the same reasons, declared here once).
 */
export const REWARDS_ERRORS = {
  /** `requested`: the points the redemption needs; `available`: the points the user holds. */
  insufficient_points: declareError('conflict', 'user', detailsOf<{ requested: number; available: number }>()),
  account_closed: declareError('not_found', 'user'),
  no_account: declareError('not_found', 'user'),
  redemption_not_found: declareError('not_found', 'user'),
  /** The SPA makes a new key for every new redemption: only a broken client reuses one. */
  idempotency_key_reused: declareError('conflict', 'internal'),
  reservation_not_found: declareError('not_found', 'internal'),
  already_settled: declareError('conflict', 'internal'),
  reference_reused: declareError('conflict', 'internal'),
  operator_item_not_found: declareError('not_found', 'operator'),
  already_resolved: declareError('conflict', 'operator', detailsOf<{ status: string; lastAction?: string | null; by?: string | null } | undefined>()),
  retry_in_progress: declareError('conflict', 'operator'),
  delivery_incomplete: declareError('validation', 'operator'),
  /** Missing-credit claims (docs/earning.md, "Missing credit"): a user may have a few open at once. */
  too_many_open_claims: declareError('conflict', 'user', detailsOf<{ open: number; limit: number }>()),
  credit_claim_not_found: declareError('not_found', 'operator'),
  /** Another admin decided the claim first: `status` is what they decided. */
  claim_already_decided: declareError('conflict', 'operator', detailsOf<{ status: string }>()),
  /** Risk rules (docs/earning.md, "Risk rules"): the account's redemptions are paused; `reasons` say why, the appeal is on the page. */
  redemptions_paused: declareError('forbidden', 'user', detailsOf<{ reasons: string[] }>()),
  /** An appeal while redemptions are open: nothing to look at again. */
  nothing_to_appeal: declareError('conflict', 'user'),
  /** One appeal waits at a time: the admins answer it first. */
  appeal_already_open: declareError('conflict', 'user'),
  redemption_review_not_found: declareError('not_found', 'operator'),
  /** Another admin decided the review first: `status` is the redemption's status now. */
  review_already_decided: declareError('conflict', 'operator', detailsOf<{ status: string }>()),
} as const;
