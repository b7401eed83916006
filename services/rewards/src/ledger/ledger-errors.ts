import { AppError } from '@esim/platform';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** The Postgres error behind a TypeORM QueryFailedError (or the error itself). */
export function pgError(err: unknown): PgError {
  const e = err as { driverError?: PgError } & PgError;
  return e?.driverError ?? e ?? {};
}

export function violates(err: unknown, constraint: string): boolean {
  return pgError(err).constraint === constraint;
}

export function insufficientPoints(err: unknown, requested: number): AppError {
  const available = Number(pgError(err).detail ?? 0);
  return new AppError('conflict', `Insufficient points: you need ${requested} points but only have ${available}.`, {
    reason: 'insufficient_points',
    details: { available, requested },
  });
}

export const accountClosed = () => new AppError('not_found', 'This account no longer exists.', { reason: 'account_closed' });
