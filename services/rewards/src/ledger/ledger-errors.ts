import { AppError, postgresError } from '@esim/platform';

/** The ledger trigger puts the available balance in the error's DETAIL when it refuses an overdraft. */
export function insufficientPoints(err: unknown, requested: number): AppError {
  const available = Number(postgresError(err).detail ?? 0);
  return new AppError('conflict', `Insufficient points: you need ${requested} points but only have ${available}.`, {
    reason: 'insufficient_points',
    details: { available, requested },
  });
}

export const accountClosed = () => new AppError('not_found', 'This account no longer exists.', { reason: 'account_closed' });
