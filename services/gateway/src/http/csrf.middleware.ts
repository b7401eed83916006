import { EmailPreferenceRoutes } from '@esim/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@esim/platform';
import { sendError } from './error-response';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Routes whose only credential is a signed token in their URL, never the session: a forged
 * cross-site request gains nothing there. A promotional email's one-click unsubscribe is POSTed
 * by the mail client as a form from no origin of ours (RFC 8058), so the checks below would refuse it.
 */
const TOKEN_ONLY = new Set([EmailPreferenceRoutes.unsubscribe.path]);

/**
 * CSRF defence for the cookie session on /api: a state-changing request must carry JSON (or no
 * body) — forms, multipart and text/plain are what a foreign page can send without CORS — and,
 * when the browser names its Origin, it must be our own.
 */
export function csrfGuard(publicUrl: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || TOKEN_ONLY.has(req.originalUrl.split('?')[0])) return next();
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

/**
 * CSRF defence for the sandbox controls under /sandbox (the offer walls' Complete and Reverse
 * forms, the Stripe emulator's card form relay): they take forms by design, so the content-type
 * rule of csrfGuard cannot apply, and the origin must. A state-changing request is refused when
 * the browser names an Origin that is not ours, or says it comes from another site or origin
 * (Sec-Fetch-Site): the session cookie is SameSite=Lax, which another port or subdomain of the
 * same site still gets. A request naming neither (a server, a script) is let through, as on /api.
 */
export function originGuard(publicUrl: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if ((origin && origin !== ownOrigin) || site === 'cross-site' || site === 'same-site') {
      return sendError(res, new AppError('csrf_origin', 'Cross-origin requests are not allowed.'));
    }
    next();
  };
}
