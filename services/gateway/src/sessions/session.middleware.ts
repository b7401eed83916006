import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import RedisStore from 'connect-redis';
import type Redis from 'ioredis';
import { RequestContext } from '@esim/platform';
import { cookieSecure, GatewayConfig, sessionAbsoluteMs, sessionIdleMs } from '../config';

export const SESSION_STORE_PREFIX = 'sess:';

export function sessionCookieName(config: GatewayConfig): string {
  // The __Host- prefix pins the cookie to our host, path / and HTTPS.
  return cookieSecure(config) ? '__Host-sid' : 'sid';
}

export function createSessionStore(redis: Redis): RedisStore {
  return new RedisStore({ client: redis, prefix: SESSION_STORE_PREFIX });
}

/**
 * Cookie sessions in Redis. The id is 24 random bytes (express-session's uid-safe); the cookie is
 * HttpOnly, SameSite=Lax, host-only. `rolling` renews the idle timeout on every answer; the
 * absolute lifetime is checked against signedInAt below.
 */
export function sessionMiddleware(config: GatewayConfig, store: RedisStore): RequestHandler {
  return session({
    name: sessionCookieName(config),
    secret: config.SESSION_SECRET,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    proxy: config.TRUST_PROXY !== 'false',
    cookie: { httpOnly: true, sameSite: 'lax', secure: cookieSecure(config), path: '/', maxAge: sessionIdleMs(config) },
  });
}

/** Ends a session that outlived its absolute lifetime, and tags the request with its user. */
export function sessionLifetime(config: GatewayConfig): RequestHandler {
  const absolute = sessionAbsoluteMs(config);
  return (req: Request, _res: Response, next: NextFunction) => {
    const s = req.session;
    if (s?.userId && (!s.signedInAt || Date.now() - s.signedInAt > absolute)) {
      return s.destroy(() => next());
    }
    const ctx = RequestContext.current();
    if (ctx && s?.userId) ctx.userId = s.userId;
    next();
  };
}
