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
} as const;
