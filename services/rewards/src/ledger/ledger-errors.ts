import { AppError, postgresError } from '@esim/platform';

/** The ledger trigger puts the available balance in the error's DETAIL when it refuses an overdraft. */
export function insufficientPoints(err: unknown, requested: number): AppError {
  const available = Number(postgresError(err).detail ?? 0);
  return new AppError('insufficient_points', `Insufficient points: you need ${requested} points but only have ${available}.`, {
    details: { available, requested },
  });
}

export const accountClosed = () => new AppError('account_closed', 'This account no longer exists.');
