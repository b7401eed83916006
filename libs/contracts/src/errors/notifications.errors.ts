import { declareError } from './error-declaration';

/** Web Push (docs/wallet.md, "Web Push"). */
export const NOTIFICATIONS_ERRORS = {
  /** A subscription's endpoint is not a push service this deployment sends to (WEB_PUSH_ALLOWED_HOSTS). */
  push_endpoint_refused: declareError('validation', 'operator'),
} as const;
