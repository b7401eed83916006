import {
  ERRORS,
  ERROR_STATUS,
  GENERIC_REASON,
  isErrorCode,
  isErrorReason,
  type ErrorCode,
  type ErrorCodeOf,
  type ErrorDetails,
  type ErrorReason,
} from '@esim/contracts';

/**
 * The one error vocabulary of the system is declared in @esim/contracts (libs/contracts/src/errors):
 * every reason with the code, and so the HTTP status, it is answered with. Services throw
 * AppError with a declared reason; it crosses RPC as a plain object and the gateway turns it into
 * that status with a `{ message, code, reason, details? }` body.
 */
export { ERROR_STATUS, type ErrorCode, type ErrorReason };

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  /** The declared reason clients branch on, e.g. 'insufficient_points'. */
  reason?: string;
  details?: unknown;
}

/**
 * `details` as the declaration types it: required where it gives a type, optional where that type
 * admits undefined, and absent where it gives none.
 */
type DetailsArgs<R extends ErrorReason> = undefined extends ErrorDetails<R> ? [opts?: { details?: ErrorDetails<R> }] : [opts: { details: ErrorDetails<R> }];

export class AppError<R extends ErrorReason = ErrorReason> extends Error {
  readonly reason: R;
  readonly code: ErrorCodeOf<R>;
  readonly details?: ErrorDetails<R>;

  constructor(reason: R, message: string, ...opts: DetailsArgs<R>) {
    // The compiler refuses an undeclared reason; this catches one from untyped code, loudly.
    if (!isErrorReason(reason)) throw new TypeError(`AppError: '${String(reason)}' is not a declared error reason (libs/contracts/src/errors)`);
    super(message);
    this.name = 'AppError';
    this.reason = reason;
    this.code = ERRORS[reason].code as ErrorCodeOf<R>;
    this.details = opts[0]?.details as ErrorDetails<R> | undefined;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toShape(): AppErrorShape {
    return { code: this.code, message: this.message, reason: this.reason, details: this.details };
  }

  static isShape(value: unknown): value is AppErrorShape {
    return (
      typeof value === 'object' && value !== null &&
      isErrorCode((value as AppErrorShape).code) &&
      typeof (value as AppErrorShape).message === 'string'
    );
  }

  /** A shape from the wire; a reason this build does not declare becomes its code's generic reason. */
  static fromShape(shape: AppErrorShape): AppError {
    const reason: ErrorReason = isErrorReason(shape.reason) ? shape.reason : GENERIC_REASON[shape.code];
    const Untyped = AppError as new (reason: ErrorReason, message: string, opts?: { details?: unknown }) => AppError;
    return new Untyped(reason, shape.message, { details: shape.details });
  }

  /** The reason of a code alone (a framework's refusal by HTTP status): see GENERIC_REASON. */
  static ofCode(code: ErrorCode, message: string): AppError {
    return new AppError(GENERIC_REASON[code] as 'internal_error', message);
  }
}

/** Turns a zod error into the first readable message, which is what a form shows. */
export function validationError(issues: ReadonlyArray<{ message: string; path: PropertyKey[] }>): AppError<'invalid_request'> {
  const first = issues[0];
  return new AppError('invalid_request', first?.message ?? 'Invalid request', {
    details: issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  });
}

/** Declared reason of a 503 answered while the service's database cannot be reached. */
export const DATABASE_UNAVAILABLE = 'database_unavailable' as const;

/** The answer to a request that failed only because the database could not be reached (isDatabaseUnreachable). */
export const databaseUnavailable = (): AppError =>
  new AppError(DATABASE_UNAVAILABLE, 'The service is temporarily unavailable. Please try again in a moment.');
