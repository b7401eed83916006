import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SANDBOX_SIGNED_IN_USER_HEADER } from '@esim/contracts';
import { RequestContext } from '@esim/platform';
import { clientIp } from '../common/client-ip';
import { streamTo, upstreamOf } from '../offerwalls/webhooks-proxy';
import { signedInUserId } from '../sessions/auth.guard';

/**
 * The provider emulators' browser-facing pages and calls (/sandbox/*: the sandbox card form's
 * Stripe calls, the sandbox offer walls) streamed to the sandboxes process as received, with the
 * forward the provider callbacks use (webhooks-proxy.ts): cookies and credentials stay here. The
 * one thing added is who is signed in (from this edge's session; a client's own header of that
 * name is dropped), since an emulated wall opens only for the user its uid belongs to. Mounted
 * outside production only (or with ALLOW_SANDBOX_IN_PRODUCTION), before the body parsers.
 */
export function sandboxesProxy(sandboxesUrl: string): RequestHandler {
  const upstream = upstreamOf(sandboxesUrl, 'SandboxesProxy');
  return (req: Request, res: Response, _next: NextFunction) => {
    const userId = signedInUserId(req);
    streamTo(
      req,
      res,
      {
        // originalUrl: Express strips the mount path from req.url.
        target: req.originalUrl,
        clientIp: clientIp(req),
        correlationId: RequestContext.current()?.correlationId,
        extraHeaders: userId ? { [SANDBOX_SIGNED_IN_USER_HEADER]: userId } : undefined,
      },
      upstream,
    );
  };
}
