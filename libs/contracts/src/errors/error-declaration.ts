/**
 * The HTTP status of each error code. A code is the coarse kind of a failure (what the `{ message,
 * code }` answer has always carried); a reason is the declared, finer code a client branches on.
 */
export const ERROR_STATUS = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  timeout: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/**
 * Who can meet a reason, which decides how the SPA words it:
 * - `user`: the SPA has a text for it in every language (frontend/src/lib/errorMessages.ts);
 * - `operator`: only the admin console meets it; it shows the server's message to the operator;
 * - `internal`: no page of the SPA can cause it (a broken client, a provider, a test double):
 *   the SPA says its generic "something went wrong".
 */
export type ErrorAudience = 'user' | 'operator' | 'internal';

export interface ErrorDeclaration<C extends ErrorCode = ErrorCode, D = unknown, A extends ErrorAudience = ErrorAudience> {
  readonly code: C;
  readonly status: (typeof ERROR_STATUS)[C];
  readonly audience: A;
  /** Type only (never set): the shape of the error's `details`, held exactly (a parameter type is not widened). */
  readonly detailsType?: (details: D) => void;
}

/** A type carrier only; a parameter type keeps `| undefined`, which an optional property would drop. */
export interface DetailsMarker<D> {
  readonly __details?: (details: D) => void;
}

/** Carries a `details` type into a declaration: `declareError('conflict', 'user', detailsOf<{ n: number }>())`. */
export const detailsOf = <D>(): DetailsMarker<D> => ({});

/** One reason's declaration; its status follows from its code. */
export function declareError<C extends ErrorCode, A extends ErrorAudience, D = undefined>(
  code: C,
  audience: A,
  _details?: DetailsMarker<D>,
): ErrorDeclaration<C, D, A> {
  return Object.freeze({ code, status: ERROR_STATUS[code], audience });
}
