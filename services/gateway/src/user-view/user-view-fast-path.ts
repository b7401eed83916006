import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { RequestHandler } from 'express';
import type Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { inFrontOfExpress, PlatformMetrics, tracingEnabled } from '@esim/platform';
import { sessionAbsoluteMs, type GatewayConfig } from '../config';
import { correlationIdOf } from '../http/request-context.middleware';
import { securityHeaders } from '../http/security-headers';
import { REDIS } from '../sessions/redis.provider';
import { SESSION_STORE_PREFIX, sessionCookieName } from '../sessions/session.middleware';
import { UserViewCache } from './user-view-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The route, exactly: anything else (a query, a trailing slash, HEAD) goes the usual way. */
const PATH = '/api/user';

interface StoredSession {
  cookie?: { originalMaxAge?: unknown; path?: unknown; httpOnly?: unknown; secure?: unknown; sameSite?: unknown; domain?: unknown };
  passport?: { user?: { id?: unknown; signedInAt?: unknown } };
}

/**
 * `GET /api/user` answered in front of Express, for the one common case: a valid session whose
 * user has a whole, fresh view in the read model. The answer is the one the usual path gives —
 * same body, status and headers (security headers, no-store, correlation id, the rolling session
 * cookie, ETag, Vary), the session's idle time renewed in Redis, the request timed and logged —
 * at a fraction of the cost: two Redis round trips and no middleware chain
 * (docs/live-view.md, "Performance", says why).
 *
 * Anything else — no or a badly signed cookie, an unknown or malformed session, a session past
 * its absolute lifetime, a secure cookie on a plain connection, a missing or stale view, a
 * conditional request, tracing on, any error — is handed to Express untouched, whose session
 * middleware, guards and rebuild decide as before. So this path never answers what the usual path
 * would refuse; at worst it declines and the usual path answers.
 */
export class UserViewFastPath {
  private readonly cookieName: string;
  private readonly secret: string;
  private readonly absoluteMs: number;
  private readonly trustProxy: boolean;
  /** helmet's headers (security-headers.ts), the same for every answer: computed once. */
  private readonly securityHeaders: string[];

  constructor(
    private readonly redis: Redis,
    private readonly cache: UserViewCache,
    config: GatewayConfig,
    private readonly metrics?: PlatformMetrics,
  ) {
    this.cookieName = sessionCookieName(config);
    this.secret = config.SESSION_SECRET;
    this.absoluteMs = sessionAbsoluteMs(config);
    this.trustProxy = config.TRUST_PROXY !== 'false';
    this.securityHeaders = staticHeaders(securityHeaders());
  }

  /** Puts the fast path in front of the server's request listener (Express). */
  static install(app: INestApplication, config: GatewayConfig): void {
    const server = app.getHttpServer() as Server;
    // A connection of its own that batches the commands of concurrent requests into one write:
    // a socket write per Redis command would be a large share of this path's time.
    const redis = app.get<Redis>(REDIS).duplicate({ enableAutoPipelining: true });
    server.once('close', () => void redis.quit().catch(() => redis.disconnect()));
    const fast = new UserViewFastPath(redis, app.get(UserViewCache), config, app.get(PlatformMetrics, { strict: false }));
    inFrontOfExpress(app, (req, res, usualPath) => fast.handle(req, res, usualPath));
  }

  handle(req: IncomingMessage, res: ServerResponse, usualPath: () => void): void {
    if (req.method !== 'GET' || req.url !== PATH || req.headers['if-none-match'] || req.headers['if-modified-since'] || tracingEnabled()) return usualPath();
    const signed = this.signedSessionId(req.headers.cookie);
    if (!signed) return usualPath();
    this.serve(req, res, signed).then(
      (served) => served || usualPath(),
      () => usualPath(),
    );
  }

  private async serve(req: IncomingMessage, res: ServerResponse, signed: { sid: string; raw: string }): Promise<boolean> {
    const started = process.hrtime.bigint();
    const key = `${SESSION_STORE_PREFIX}${signed.sid}`;
    const stored = await this.redis.get(key);
    if (!stored) return false;
    const session = JSON.parse(stored) as StoredSession;
    const user = session.passport?.user;
    const signedInAt = user?.signedInAt;
    // What SessionSerializer and sessionLifetime accept; anything else is theirs to refuse.
    if (typeof user?.id !== 'string' || !UUID.test(user.id) || typeof signedInAt !== 'number' || !Number.isInteger(signedInAt) || signedInAt <= 0) return false;
    if (Date.now() - signedInAt > this.absoluteMs) return false;
    const cookie = session.cookie;
    const maxAge = cookie?.originalMaxAge;
    if (!cookie || typeof maxAge !== 'number' || maxAge <= 0) return false;
    // express-session sets no cookie on a plain connection for a secure one: not this path's call.
    if (cookie.secure === true && !this.isSecure(req)) return false;

    // The rolling session: its idle time starts again (connect-redis' touch), in the same round trip.
    const body = await this.cache.readAnswer(user.id, { key, seconds: Math.ceil(maxAge / 1000) }, this.redis);
    if (body === null) return false;

    const correlationId = correlationIdOf(req);
    // In the usual path's order: request context, helmet, no-store, then Express and express-session's own.
    res.writeHead(200, [
      'X-Correlation-Id',
      correlationId,
      ...this.securityHeaders,
      'Cache-Control',
      'no-store',
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(Buffer.byteLength(body)),
      'ETag',
      weakEtag(body),
      'Set-Cookie',
      this.sessionCookie(signed.raw, cookie, maxAge),
      'Vary',
      'Accept-Encoding',
    ]);
    res.end(body);

    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics?.http.observe({ method: 'GET', route: PATH, status: '200' }, seconds);
    // The most frequent request of all (every page, every tab) is logged at debug, not info: one
    // line each cost a sixth of this path's time in the profile; its count and latency are in the
    // metrics above. The line is pino-http's (its serializers read the request and the answer).
    const log = PinoLogger.root;
    if (log?.isLevelEnabled('debug')) {
      (req as IncomingMessage & { id?: string }).id = correlationId;
      log.debug({ req, res, responseTime: Math.round(seconds * 1000), correlationId, userId: user.id }, 'request completed');
    }
    return true;
  }

  /** express-session's reading of the cookie: `s:<sid>.<HMAC-SHA256>`, signed with SESSION_SECRET. */
  private signedSessionId(header: string | undefined): { sid: string; raw: string } | null {
    if (!header) return null;
    let value: string | null = null;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== this.cookieName) continue;
      // Two cookies of the name: let the usual path pick.
      if (value !== null) return null;
      value = part.slice(eq + 1).trim();
    }
    if (!value) return null;
    let raw: string;
    try {
      raw = decodeURIComponent(value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
    } catch {
      return null;
    }
    if (!raw.startsWith('s:')) return null;
    const signed = raw.slice(2);
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const sid = signed.slice(0, dot);
    const expected = Buffer.from(sign(sid, this.secret));
    const given = Buffer.from(signed);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { sid, raw };
  }

  /** The cookie express-session sets on every answer of a rolling session (cookie.serialize's order). */
  private sessionCookie(raw: string, cookie: NonNullable<StoredSession['cookie']>, maxAge: number): string {
    let header = `${this.cookieName}=${encodeURIComponent(raw)}`;
    if (typeof cookie.domain === 'string') header += `; Domain=${cookie.domain}`;
    header += `; Path=${typeof cookie.path === 'string' ? cookie.path : '/'}`;
    header += `; Expires=${new Date(Date.now() + maxAge).toUTCString()}`;
    if (cookie.httpOnly === true) header += '; HttpOnly';
    if (cookie.secure === true) header += '; Secure';
    if (typeof cookie.sameSite === 'string') header += `; SameSite=${cookie.sameSite.charAt(0).toUpperCase()}${cookie.sameSite.slice(1).toLowerCase()}`;
    else if (cookie.sameSite === true) header += '; SameSite=Strict';
    return header;
  }

  /** express-session's test (`proxy` is on when TRUST_PROXY is set): TLS here, or X-Forwarded-Proto from the proxy. */
  private isSecure(req: IncomingMessage): boolean {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    if (!this.trustProxy) return false;
    const proto = req.headers['x-forwarded-proto'];
    const first = (typeof proto === 'string' ? proto : '').split(',')[0].trim().toLowerCase();
    return first === 'https';
  }
}

/** The headers a middleware that only sets constant headers (helmet here) sets, as name, value, name, … */
function staticHeaders(middleware: RequestHandler): string[] {
  const set = new Map<string, [string, string]>();
  const recorder = {
    setHeader: (name: string, value: unknown) => set.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => set.delete(name.toLowerCase()),
    getHeader: (name: string) => set.get(name.toLowerCase())?.[1],
  };
  middleware({ headers: {}, method: 'GET', url: PATH } as never, recorder as never, () => undefined);
  return [...set.values()].flat();
}

/** cookie-signature's signature, as express-session writes it. */
function sign(value: string, secret: string): string {
  return `${value}.${createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')}`;
}

/** Express's default ETag of a string body (the `etag` package, weak). */
function weakEtag(body: string): string {
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').substring(0, 27);
  return `W/"${Buffer.byteLength(body, 'utf8').toString(16)}-${hash}"`;
}
