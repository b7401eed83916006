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
  user_not_found: declareError('not_found', 'user'),
  audit_id_reused: declareError('conflict', 'operator'),
  audit_entry_not_found: declareError('not_found', 'operator'),
  not_the_actor: declareError('forbidden', 'operator'),
  audit_outcome_recorded: declareError('conflict', 'operator'),
} as const;
