import { ERROR_STATUS, type ErrorCode, type ErrorDeclaration } from './error-declaration';
import { ESIM_ERRORS } from './esim.errors';
import { IDENTITY_ERRORS } from './identity.errors';
import { NOTIFICATIONS_ERRORS } from './notifications.errors';
import { PAYMENTS_ERRORS } from './payments.errors';
import { PLATFORM_ERRORS } from './platform.errors';
import { REWARDS_ERRORS } from './rewards.errors';
import { WEBHOOKS_ERRORS } from './webhooks.errors';

export * from './error-declaration';
export { ESIM_ERRORS, PROVIDER_REFUSAL_REASONS, type ProviderRefusalReason } from './esim.errors';
export { IDENTITY_ERRORS } from './identity.errors';
export { NOTIFICATIONS_ERRORS } from './notifications.errors';
export { PAYMENTS_ERRORS } from './payments.errors';
export { PLATFORM_ERRORS } from './platform.errors';
export { REWARDS_ERRORS } from './rewards.errors';
export { WEBHOOKS_ERRORS } from './webhooks.errors';

/** Each domain's declarations, by domain. A reason is declared in exactly one of them. */
export const ERROR_DOMAINS = {
  platform: PLATFORM_ERRORS,
  identity: IDENTITY_ERRORS,
  rewards: REWARDS_ERRORS,
  esim: ESIM_ERRORS,
  payments: PAYMENTS_ERRORS,
  webhooks: WEBHOOKS_ERRORS,
  notifications: NOTIFICATIONS_ERRORS,
} as const;
type Domains = typeof ERROR_DOMAINS;
type DomainName = keyof Domains;

/** Reasons declared by more than one domain; `never` while each is declared once. */
type Duplicated = { [A in DomainName]: { [B in Exclude<DomainName, A>]: keyof Domains[A] & keyof Domains[B] }[Exclude<DomainName, A>] }[DomainName];
/** Fails to compile when a reason is declared in two domains (the spread below would hide it). */
const declaredOnce: [Duplicated] extends [never] ? true : { duplicated: Duplicated } = true;
void declaredOnce;

/** Every reason any service answers, with its code, status and audience. */
export const ERRORS = {
  ...PLATFORM_ERRORS,
  ...IDENTITY_ERRORS,
  ...REWARDS_ERRORS,
  ...ESIM_ERRORS,
  ...PAYMENTS_ERRORS,
  ...WEBHOOKS_ERRORS,
  ...NOTIFICATIONS_ERRORS,
} as const;
export type ErrorReason = keyof typeof ERRORS;
export const ERROR_REASONS = Object.keys(ERRORS) as [ErrorReason, ...ErrorReason[]];

/** The code (and so the HTTP status) a reason is answered with. */
export type ErrorCodeOf<R extends ErrorReason> = (typeof ERRORS)[R]['code'];
/** The `details` a reason carries (`undefined` for none). */
export type ErrorDetails<R extends ErrorReason> = (typeof ERRORS)[R] extends ErrorDeclaration<ErrorCode, infer D> ? D : never;
/** The reasons a person can meet on the SPA's own pages: each has a text in every language. */
export type UserFacingReason = { [R in ErrorReason]: (typeof ERRORS)[R]['audience'] extends 'user' ? R : never }[ErrorReason];

export const isErrorReason = (value: unknown): value is ErrorReason => typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, value);
export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);

/**
 * The reason of an answer that has only a code: a framework's own refusal (an unknown route, a
 * method not allowed) or an error from a peer that sent no declared reason.
 */
export const GENERIC_REASON = {
  validation: 'invalid_request',
  unauthorized: 'sign_in_required',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'unsupported_media_type',
  unprocessable: 'unprocessable',
  rate_limited: 'too_many_attempts',
  internal: 'internal_error',
  bad_gateway: 'bad_gateway',
  unavailable: 'service_unavailable',
  timeout: 'timeout',
} as const satisfies { [C in ErrorCode]: { [R in ErrorReason]: ErrorCodeOf<R> extends C ? R : never }[ErrorReason] };

/** The reasons answered with `status`, in declaration order. */
export const reasonsWithStatus = (status: number): ErrorReason[] => ERROR_REASONS.filter((r) => ERRORS[r].status === status);
