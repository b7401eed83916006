import { declareError } from './error-declaration';

/** Earning: the offer walls, and the sandbox wall that stands in for them outside production. */
export const WEBHOOKS_ERRORS = {
  offerwall_disabled: declareError('not_found', 'user'),
  sandbox_offer_not_found: declareError('not_found', 'internal'),
  sandbox_transaction_not_found: declareError('not_found', 'internal'),
  sandbox_postback_failed: declareError('bad_gateway', 'internal'),
  sandbox_wall_not_emulated: declareError('not_found', 'internal'),
  sandbox_wall_other_user: declareError('forbidden', 'internal'),
} as const;
