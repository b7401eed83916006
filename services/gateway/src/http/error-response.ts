import type { Response } from 'express';
import { AppError } from '@esim/platform';

/** The one shape of every error answer: `{ message, code, reason?, details? }`. */
export function sendError(res: Response, err: AppError): void {
  if (res.headersSent) return;
  res.status(err.status).type('application/json').send(JSON.stringify({ message: err.message, code: err.code, reason: err.reason, details: err.details }));
}
