import { declareError, detailsOf } from './error-declaration';

/**
 * What the provider answered when it refused a redemption (`provider_refused`'s `providerReason`):
 * the SPA words the ones a user can act on.
 */
export const PROVIDER_REFUSAL_REASONS = ['line_not_found', 'no_refills_available', 'no_suitable_offer', 'insufficient_balance', 'unauthorized', 'refused', 'unavailable'] as const;
export type ProviderRefusalReason = (typeof PROVIDER_REFUSAL_REASONS)[number];

/** eSIM lines, gifts and the eSIM provider. */
export const ESIM_ERRORS = {
  line_not_found: declareError('not_found', 'user'),
  /** The line was deactivated at the provider for a self-serve refund (docs/payments.md, "Refunds"). */
  line_cancelled: declareError('conflict', 'user'),
  provider_unavailable: declareError('unavailable', 'user'),
  /** `largestGiftGB`: the largest unclaimed gift (0 for none). */
  no_covering_gift: declareError('conflict', 'user', detailsOf<{ planTier: string; largestGiftGB: number }>()),
  /** `providerReason`: one of PROVIDER_REFUSAL_REASONS (or null when the provider gave none). */
  provider_refused: declareError('unprocessable', 'user', detailsOf<{ redemptionId: string; providerReason: string | null; pointsUsed: number }>()),
  qr_input_invalid: declareError('validation', 'internal'),
  wrong_line: declareError('validation', 'operator'),
} as const;
