import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { AppError } from '@esim/platform';
import { sendError } from './error-response';

/** Wraps a body parser so that its failures are clear 4xx answers in our error shape. */
function guarded(parser: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) =>
    parser(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return sendError(res, new AppError('payload_too_large', 'The request body is too large.'));
      if (type === 'entity.parse.failed') return sendError(res, new AppError('invalid_json', 'The request body is not valid JSON.'));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') return sendError(res, new AppError('unsupported_media_type', 'Unsupported body encoding.'));
      return sendError(res, new AppError('invalid_json', 'The request body could not be read.'));
    });
}

export function bodyParsers(limit: string): RequestHandler[] {
  return [
    guarded(express.json({ limit, strict: true })),
    // /api rejects forms in the CSRF check.
    guarded(express.urlencoded({ limit, extended: false })),
  ];
}
