/**
 * The one error vocabulary of the system. Services throw AppError; it crosses RPC as a plain
 * object and the gateway turns it into the HTTP status below with a `{ message, code }` body.
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

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  /** A finer reason clients may branch on, e.g. 'insufficient_points'. */
  reason?: string;
  details?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly reason?: string;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, opts: { reason?: string; details?: unknown } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.reason = opts.reason;
    this.details = opts.details;
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
      typeof (value as AppErrorShape).code === 'string' && (value as AppErrorShape).code in ERROR_STATUS &&
      typeof (value as AppErrorShape).message === 'string'
    );
  }

  static fromShape(shape: AppErrorShape): AppError {
    return new AppError(shape.code, shape.message, { reason: shape.reason, details: shape.details });
  }
}

/** Turns a zod error into the first readable message, which is what a form shows. */
export function validationError(issues: ReadonlyArray<{ message: string; path: PropertyKey[] }>): AppError {
  const first = issues[0];
  return new AppError('validation', first?.message ?? 'Invalid request', {
    details: issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  });
}

/** Declared reason of a 503 answered while the service's database cannot be reached. */
export const DATABASE_UNAVAILABLE = 'database_unavailable';

/** The answer to a request that failed only because the database could not be reached (isDatabaseUnreachable). */
export const databaseUnavailable = (): AppError =>
  new AppError('unavailable', 'The service is temporarily unavailable. Please try again in a moment.', { reason: DATABASE_UNAVAILABLE });
