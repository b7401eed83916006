import type { ErrorDetails, UserFacingReason } from '@esim/contracts';
import { NetworkError } from './api';
import { hasReason, serverError } from './serverError';

/** An i18n key and its values. */
export interface MessageKey {
  key: string;
  values?: Record<string, unknown>;
}

type NumberFormat = (n: number) => string;

/**
 * The text of each reason a person can meet, as an i18n key (present in every locale: checked by
 * errorMessages.spec.ts). Typed over UserFacingReason, so a newly declared user-facing reason does
 * not compile until it has its text here.
 */
export const REASON_MESSAGES: { readonly [R in UserFacingReason]: (details: ErrorDetails<R> | undefined, formatNumber: NumberFormat) => MessageKey } = {
  invalid_request: () => ({ key: 'errors.reasons.invalid_request' }),
  sign_in_required: () => ({ key: 'errors.reasons.sign_in_required' }),
  too_many_attempts: () => ({ key: 'errors.reasons.too_many_attempts' }),
  too_many_streams: () => ({ key: 'errors.reasons.too_many_streams' }),
  internal_error: () => ({ key: 'errors.generic' }),
  service_unavailable: () => ({ key: 'errors.reasons.service_unavailable' }),
  rpc_timeout: () => ({ key: 'errors.reasons.service_unavailable' }),
  rpc_failed: () => ({ key: 'errors.reasons.service_unavailable' }),
  rpc_unroutable: () => ({ key: 'errors.reasons.service_unavailable' }),
  rpc_connection_lost: () => ({ key: 'errors.reasons.service_unavailable' }),
  rpc_client_closed: () => ({ key: 'errors.reasons.service_unavailable' }),
  captcha_required: () => ({ key: 'captcha.required' }),
  captcha_failed: () => ({ key: 'captcha.failed' }),
  captcha_expired: () => ({ key: 'captcha.expired' }),
  captcha_unavailable: () => ({ key: 'captcha.unavailable' }),
  invalid_credentials: () => ({ key: 'errors.reasons.invalid_credentials' }),
  wrong_password: () => ({ key: 'errors.reasons.wrong_password' }),
  current_password_required: () => ({ key: 'errors.reasons.current_password_required' }),
  invalid_code: () => ({ key: 'errors.reasons.invalid_code' }),
  verification_capped: () => ({ key: 'errors.reasons.too_many_attempts' }),
  resend_too_soon: () => ({ key: 'errors.reasons.too_many_attempts' }),
  invalid_reset_token: () => ({ key: 'reset.invalidText' }),
  invalid_unsubscribe_link: () => ({ key: 'unsubscribe.invalid' }),
  user_not_found: () => ({ key: 'errors.reasons.user_not_found' }),
  two_factor_code_invalid: () => ({ key: 'errors.reasons.two_factor_code_invalid' }),
  two_factor_sign_in_code_invalid: () => ({ key: 'errors.reasons.two_factor_code_invalid' }),
  two_factor_not_pending: () => ({ key: 'errors.reasons.two_factor_not_pending' }),
  passkey_refused: () => ({ key: 'errors.reasons.passkey_refused' }),
  passkey_sign_in_refused: () => ({ key: 'errors.reasons.passkey_refused' }),
  passkey_exists: () => ({ key: 'errors.reasons.passkey_exists' }),
  insufficient_points: (d, n) =>
    d ? { key: 'redeem.errors.insufficient', values: { needed: n(d.requested), current: n(d.available) } } : { key: 'redeem.errors.insufficientTitle' },
  account_closed: () => ({ key: 'errors.reasons.account_closed' }),
  no_account: () => ({ key: 'errors.reasons.no_account' }),
  redemption_not_found: () => ({ key: 'errors.reasons.redemption_not_found' }),
  line_not_found: () => ({ key: 'redeem.errors.iccidNotFound' }),
  line_cancelled: () => ({ key: 'errors.reasons.line_cancelled' }),
  provider_unavailable: () => ({ key: 'errors.reasons.provider_unavailable' }),
  no_covering_gift: (d, n) => ({ key: 'errors.reasons.no_covering_gift', values: { largestGiftGB: n(d?.largestGiftGB ?? 0) } }),
  provider_refused: (d) =>
    d?.providerReason === 'line_not_found'
      ? { key: 'redeem.errors.iccidNotFound' }
      : d?.providerReason === 'no_refills_available' || d?.providerReason === 'no_suitable_offer'
        ? { key: 'redeem.errors.noPlans' }
        : { key: 'errors.reasons.provider_refused' },
  payment_not_found: () => ({ key: 'errors.reasons.payment_not_found' }),
  payment_not_yours: () => ({ key: 'errors.reasons.payment_not_yours' }),
  payment_not_succeeded: () => ({ key: 'errors.reasons.payment_not_succeeded' }),
  payment_mismatch: () => ({ key: 'errors.reasons.payment_mismatch' }),
  payment_provider_unavailable: () => ({ key: 'checkout.failure.unreachable' }),
  payment_provider_paused: () => ({ key: 'providerPause.payments' }),
  pix_requires_brl: () => ({ key: 'errors.reasons.pix_requires_brl' }),
  refund_not_allowed: (d) => ({ key: `refunds.why.${d?.why ?? 'not_activated'}` }),
  offerwall_disabled: () => ({ key: 'errors.reasons.offerwall_disabled' }),
  too_many_open_claims: (d, n) => ({ key: 'errors.reasons.too_many_open_claims', values: { limit: n(d?.limit ?? 0) } }),
  redemptions_paused: () => ({ key: 'errors.reasons.redemptions_paused' }),
  nothing_to_appeal: () => ({ key: 'errors.reasons.nothing_to_appeal' }),
  appeal_already_open: () => ({ key: 'errors.reasons.appeal_already_open' }),
};

/** Nothing better to say: callers with a text of their own for the failure use it instead. */
export const GENERIC: MessageKey = Object.freeze({ key: 'errors.generic' });

/**
 * What to tell a person about a failed call, by its declared reason: a user-facing reason's text
 * in their language; for an operator reason (only the admin console meets them) the server's own
 * words; for anything else (an internal reason, no declared reason, a proxy's page) GENERIC. A non-HTTP error keeps its own message: the SPA made it.
 */
export function errorMessage(error: unknown, formatNumber: NumberFormat): MessageKey | { text: string } {
  if (error instanceof NetworkError) return { key: 'errors.network' };
  const server = serverError(error);
  if (server === null) {
    if (error instanceof Error && !('status' in error) && error.message) return { text: error.message };
    return GENERIC;
  }
  if (server.audience === 'operator' && server.message) return { text: server.message };
  if (server.audience !== 'user') return GENERIC;
  const reason = server.reason as UserFacingReason;
  const word = REASON_MESSAGES[reason] as (details: unknown, n: NumberFormat) => MessageKey;
  return word(hasReason(server, reason) ? server.details : undefined, formatNumber);
}
