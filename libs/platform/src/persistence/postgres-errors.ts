/**
 * Reading the errors Postgres raises, whether they come straight from `pg` or wrapped by TypeORM
 * (a QueryFailedError keeps the driver's error in `driverError`). The one place that knows the
 * SQLSTATE codes the services react to.
 */
export const PG_ERROR = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  invalidCatalogName: '3D000',
  duplicateDatabase: '42P04',
  /** CREATE ROLE of a role that exists. */
  duplicateObject: '42710',
  /** The role lacks a privilege (another service's schema, for a service role). */
  insufficientPrivilege: '42501',
  /** lock_timeout expired. */
  lockNotAvailable: '55P03',
  /** statement_timeout expired (or the statement was cancelled). */
  queryCanceled: '57014',
} as const;

/** The fields of a Postgres error the services read. */
export interface PostgresError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** The Postgres error behind `err` (unwrapping TypeORM's QueryFailedError), or an empty one. */
export function postgresError(err: unknown): PostgresError {
  if (err === null || typeof err !== 'object') return {};
  const e = err as PostgresError & { driverError?: PostgresError };
  return e.driverError ?? e;
}

const raised = (err: unknown, code: string, constraint?: string): boolean => {
  const e = postgresError(err);
  return e.code === code && (constraint === undefined || e.constraint === constraint);
};

/** A unique constraint refused the write (two writers raced for one value); optionally a named one. */
export const isUniqueViolation = (err: unknown, constraint?: string): boolean => raised(err, PG_ERROR.uniqueViolation, constraint);

/** A CHECK constraint, or a trigger raising check_violation, refused the write; optionally a named one. */
export const isCheckViolation = (err: unknown, constraint?: string): boolean => raised(err, PG_ERROR.checkViolation, constraint);

/** The constraint a write violated, when Postgres names one. */
export const violatedConstraint = (err: unknown): string | undefined => postgresError(err).constraint;

/**
 * Node's socket errors that mean the database server could not be reached or the link dropped.
 * `pg` passes them through as they are (err.code), and TypeORM wraps them in `driverError`.
 */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * What `pg` and pg-pool say when a connection ends or never opens; they carry no code. Matched on
 * the message because these libraries offer nothing else to tell them by.
 */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|server closed the connection|Client was closed/i;

/**
 * The database was unreachable, not the request wrong: a refused, reset or timed-out socket, a
 * dropped connection, or Postgres itself saying it shuts down or is not accepting connections
 * (SQLSTATE class 08, and 57P01-57P03), or refusing one more connection (53300
 * too_many_connections: every slot of max_connections taken, docs/operations.md, "Connection
 * budget"). Such a failure is answered 503 (`databaseUnavailable`),
 * since the same request succeeds once the database is back.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (SOCKET_ERRORS.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')) return true;
  if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
  // An AggregateError (a host with several addresses, each refused) holds the socket errors in `errors`.
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnreachable)) return true;
  return (e.driverError !== undefined && e.driverError !== err && isDatabaseUnreachable(e.driverError)) || (e.cause !== undefined && e.cause !== err && isDatabaseUnreachable(e.cause));
}
