import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { RequestContext } from '@esim/platform';

const ID = /^[A-Za-z0-9._-]{8,64}$/;

/** A request's correlation id: the caller's when well-formed, else a new one (also for the paths in front of Express). */
export function correlationIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-correlation-id'];
  return typeof incoming === 'string' && ID.test(incoming) ? incoming : randomUUID();
}

/** Every request gets a correlation id (a caller's well-formed one is kept) that follows it everywhere. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const correlationId = correlationIdOf(req);
  res.setHeader('X-Correlation-Id', correlationId);
  RequestContext.run({ correlationId }, () => next());
}

/** Answers that may carry personal data are never stored by browsers or proxies. */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
