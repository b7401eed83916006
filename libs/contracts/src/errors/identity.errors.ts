import { declareError } from './error-declaration';

/** Accounts: registration, sign-in, password reset, profile, the admin audit trail. */
export const IDENTITY_ERRORS = {
  invalid_credentials: declareError('unauthorized', 'user'),
  wrong_password: declareError('validation', 'user'),
  current_password_required: declareError('validation', 'user'),
  invalid_code: declareError('validation', 'user'),
  verification_capped: declareError('rate_limited', 'user'),
  resend_too_soon: declareError('rate_limited', 'user'),
  invalid_reset_token: declareError('validation', 'user'),
  /** An unsubscribe link identity did not sign (docs/accounts.md, "What each switch governs"). */
  invalid_unsubscribe_link: declareError('validation', 'user'),
  user_not_found: declareError('not_found', 'user'),
  audit_id_reused: declareError('conflict', 'operator'),
  audit_entry_not_found: declareError('not_found', 'operator'),
  not_the_actor: declareError('forbidden', 'operator'),
  audit_outcome_recorded: declareError('conflict', 'operator'),
  /** A wrong, stale or replayed TOTP or recovery code while enrolling or turning two-factor off. */
  two_factor_code_invalid: declareError('validation', 'user'),
  /** The same at sign-in's second step, where it counts toward the login limits. */
  two_factor_sign_in_code_invalid: declareError('unauthorized', 'user'),
  two_factor_not_pending: declareError('unauthorized', 'user'),
  two_factor_already_enabled: declareError('conflict', 'internal'),
  two_factor_not_set_up: declareError('conflict', 'internal'),
  two_factor_not_enabled: declareError('conflict', 'internal'),
  two_factor_needs_enrolment: declareError('conflict', 'internal'),
  /** Every way adding a passkey fails reads the same, so the answer tells nothing about accounts. */
  passkey_refused: declareError('validation', 'user'),
  passkey_sign_in_refused: declareError('unauthorized', 'user'),
  passkey_exists: declareError('conflict', 'user'),
  passkey_not_found: declareError('not_found', 'internal'),
  session_not_found: declareError('not_found', 'internal'),
  session_is_current: declareError('conflict', 'internal'),
  /** A linked group (docs/earning.md, "Fair fraud control") that no longer links two live accounts. */
  linked_group_not_found: declareError('not_found', 'operator'),
} as const;
