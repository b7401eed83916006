import { declareError, detailsOf } from './error-declaration';

/** Card purchases (Stripe) and their refunds. */
export const PAYMENTS_ERRORS = {
  payment_not_found: declareError('not_found', 'user'),
  payment_not_yours: declareError('forbidden', 'user'),
  /** `status`: the payment intent's status at Stripe. */
  payment_not_succeeded: declareError('conflict', 'user', detailsOf<{ status: string }>()),
  payment_mismatch: declareError('conflict', 'user'),
  /** Pix was asked for a purchase priced in another currency than reais (Pix settles only BRL). */
  pix_requires_brl: declareError('validation', 'user'),
  payment_provider_unavailable: declareError('bad_gateway', 'user'),
  refund_failed: declareError('bad_gateway', 'operator'),
} as const;
