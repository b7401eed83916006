import { declareError } from './error-declaration';

/** Earning: the offer walls, and the sandbox wall that stands in for them outside production. */
export const WEBHOOKS_ERRORS = {
  offerwall_disabled: declareError('not_found', 'user'),
} as const;
