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
