import { ERRORS, isErrorReason, type ErrorAudience, type ErrorDetails, type ErrorReason } from '@esim/contracts';
import { HttpError } from './api';

/** A failed call's declared error: the `{ message, code, reason, details }` body the gateway sends. */
export interface ServerError<R extends ErrorReason = ErrorReason> {
  readonly status: number;
  readonly reason: R;
  readonly audience: ErrorAudience;
  readonly details: ErrorDetails<R> | undefined;
  /** The server's own words (English): only the admin console shows them. */
  readonly message: string;
}

/**
 * The declared error of a failed call, or null: a network failure, a proxy's page, or an answer
 * whose reason this build does not declare. Pages branch on `reason` and word it by its code
 * (errorMessages.ts), never on the server's English text.
 */
export function serverError(error: unknown): ServerError | null {
  if (!(error instanceof HttpError)) return null;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return null;
  const { reason, details, message } = body as { reason?: unknown; details?: unknown; message?: unknown };
  if (!isErrorReason(reason)) return null;
  return {
    status: error.status,
    reason,
    audience: ERRORS[reason].audience,
    details: details as ErrorDetails<typeof reason> | undefined,
    message: typeof message === 'string' ? message : '',
  };
}

/** Narrows a declared error to one reason, and so its `details` to that reason's type. */
export function hasReason<R extends ErrorReason>(error: ServerError | null, ...reasons: R[]): error is ServerError<R> {
  return error !== null && (reasons as ErrorReason[]).includes(error.reason);
}
