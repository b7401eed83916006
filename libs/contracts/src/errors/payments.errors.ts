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
  /** Stripe kept failing and its circuit breaker is open: nothing was sent; try again in a few minutes. */
  payment_provider_paused: declareError('unavailable', 'user'),
  refund_failed: declareError('bad_gateway', 'operator'),
  /**
   * A self-serve refund is not offered for this purchase. `why`: `window_passed` (older than
   * REFUND_WINDOW_DAYS), `installed` / `used` (the provider reports the eSIM installed or its data
   * used), `not_activated` (no eSIM yet, or already refunded by an operator), `not_found` (the
   * provider does not know the line).
   */
  refund_not_allowed: declareError('conflict', 'user', detailsOf<{ why: 'window_passed' | 'installed' | 'used' | 'not_activated' | 'not_found' }>()),
} as const;
