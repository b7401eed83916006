import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@esim/platform';
import { sendError } from './error-response';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for the cookie session on /api: a state-changing request must carry JSON (or no
 * body) — forms, multipart and text/plain are what a foreign page can send without CORS — and,
 * when the browser names its Origin, it must be our own.
 */
export function csrfGuard(publicUrl: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin && origin !== ownOrigin) {
      return sendError(res, new AppError('csrf_origin', 'Cross-origin requests are not allowed.'));
    }
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const contentType = req.headers['content-type'];
    if ((hasBody || contentType) && !req.is('application/json')) {
      return sendError(res, new AppError('csrf_content_type', 'Send the request body as JSON (Content-Type: application/json).'));
    }
    next();
  };
}
