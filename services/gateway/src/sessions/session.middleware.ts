import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import session from 'express-session';
import RedisStore from 'connect-redis';
import type Redis from 'ioredis';
import passport from 'passport';
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
 * Cookie sessions in Redis, read by passport. The id is 24 random bytes (express-session's
 * uid-safe); the cookie is HttpOnly, SameSite=Lax, host-only. `rolling` renews the idle timeout on
 * every answer; the absolute lifetime is checked against the sign-in time below. Passport turns
 * the session's user (SessionSerializer) into `req.user`.
 */
export function sessionMiddleware(config: GatewayConfig, store: RedisStore): RequestHandler {
  const chain = Router();
  chain.use(
    session({
      name: sessionCookieName(config),
      secret: config.SESSION_SECRET,
      store,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      unset: 'destroy',
      proxy: config.TRUST_PROXY !== 'false',
      cookie: { httpOnly: true, sameSite: 'lax', secure: cookieSecure(config), path: '/', maxAge: sessionIdleMs(config) },
    }),
    passport.initialize(),
    passport.session(),
  );
  return chain;
}

/** How often a session's `lastSeenAt` is rewritten: each write costs a Redis save. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Ends a session that outlived its absolute lifetime, tags the request with its user, and notes
 * when a signed-in session was last seen (the account's session list shows it).
 */
export function sessionLifetime(config: GatewayConfig): RequestHandler {
  const absolute = sessionAbsoluteMs(config);
  return (req: Request, _res: Response, next: NextFunction) => {
    const signedInAt = req.session?.passport?.user?.signedInAt;
    if (req.user && (!signedInAt || Date.now() - signedInAt > absolute)) {
      req.user = undefined;
      return req.session.destroy(() => next());
    }
    const ctx = RequestContext.current();
    if (ctx && req.user) ctx.userId = req.user.id;
    if (req.user && Date.now() - (req.session.lastSeenAt ?? 0) > LAST_SEEN_RESOLUTION_MS) req.session.lastSeenAt = Date.now();
    next();
  };
}
