import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionData } from 'express-session';
import type Redis from 'ioredis';
import RedisStore from 'connect-redis';
import { UAParser } from 'ua-parser-js';
import type { ActiveSession } from '@esim/contracts';
import { AppError, CONFIG, RequestContext } from '@esim/platform';
import { sessionAbsoluteMs, type GatewayConfig } from '../config';
import { InjectRedis } from './redis.provider';

const userIndexKey = (userId: string) => `user-sessions:${userId}`;

/** How long the second step of a sign-in may wait for its code. */
export const TWO_FACTOR_PENDING_MS = 5 * 60_000;
const USER_AGENT_MAX = 512;

/**
 * An opaque name for a session that may travel to other services and sit in their events: its
 * SHA-256, never the id itself (which would let whoever reads the event take the session over).
 */
export const sessionRef = (sid: string): string => createHash('sha256').update(sid).digest('base64url');

/**
 * Redis pub/sub channel on which every ended session is announced, so that each replica ends the
 * live streams it holds for it (user-view/live-hub.ts). Channels are not key-prefixed by ioredis.
 */
export const sessionsEndedChannel = (redisPrefix: string) => `${redisPrefix}sessions-ended`;
export interface SessionsEnded {
  userId: string;
  /** sessionRef of each ended session. */
  refs: string[];
}

/**
 * Starts and ends sessions. Each user's session ids are indexed in Redis (`user-sessions:<id>`),
 * so a password change, a reset or a deletion can end them on the server.
 */
@Injectable()
export class SessionService {
  private readonly log = new Logger('Sessions');
  /** No session outlives its absolute lifetime, so neither need the index entries that name it. */
  private readonly indexTtlSeconds: number;
  private readonly endedChannel: string;

  constructor(
    @InjectRedis() private readonly redis: Redis,
    private readonly store: RedisStore,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.indexTtlSeconds = Math.ceil(sessionAbsoluteMs(config) / 1000);
    this.endedChannel = sessionsEndedChannel(config.REDIS_PREFIX);
  }

  /**
   * Signs the user in through passport: the session is regenerated (whatever id the browser had
   * before is dead) and SessionSerializer stores who signed in, and when.
   */
  async signIn(req: Request, user: Express.User): Promise<void> {
    await new Promise<void>((resolve, reject) => req.logIn(user, (err: unknown) => (err ? reject(err) : resolve())));
    // Saved with the answer (express-session), for the account's session list.
    req.session.userAgent = req.get('user-agent')?.slice(0, USER_AGENT_MAX);
    req.session.lastSeenAt = Date.now();
    const key = userIndexKey(user.id);
    // The index lives as long as the newest session it names could: refreshed at every sign-in.
    const results = await this.redis.multi().sadd(key, req.sessionID).expire(key, this.indexTtlSeconds).exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error('session index update was discarded');
    const ctx = RequestContext.current();
    if (ctx) ctx.userId = user.id;
    this.log.log(`session started for ${user.id}`);
  }

  /**
   * The password was right and the account has two-factor sign-in on: a fresh session id that
   * signs nobody in and remembers, for a few minutes, whose second factor it waits for.
   */
  async awaitSecondFactor(req: Request, pending: { userId: string; email: string }): Promise<void> {
    await new Promise<void>((resolve, reject) => req.session.regenerate((err: unknown) => (err ? reject(err) : resolve())));
    req.user = undefined;
    req.session.twoFactor = { ...pending, until: Date.now() + TWO_FACTOR_PENDING_MS };
  }

  /** The account's live sessions, newest sign-in first; index entries of expired ones are dropped. */
  async list(userId: string, currentSid: string): Promise<ActiveSession[]> {
    const key = userIndexKey(userId);
    const sids = await this.redis.smembers(key);
    const found = await Promise.all(sids.map(async (sid) => ({ sid, data: await this.load(sid) })));
    const gone = found.filter((f) => !f.data?.passport?.user).map((f) => f.sid);
    if (gone.length) await this.redis.srem(key, ...gone);
    return found
      .flatMap(({ sid, data }) => {
        const signedInAt = data?.passport?.user?.signedInAt;
        if (!data || signedInAt === undefined) return [];
        const ua = new UAParser(data.userAgent ?? '').getResult();
        const named = (name?: string, version?: string) => (name ? [name, version?.split('.')[0]].filter(Boolean).join(' ') : null);
        const session: ActiveSession = {
          id: sessionRef(sid),
          current: sid === currentSid,
          browser: named(ua.browser.name, ua.browser.version),
          os: named(ua.os.name, ua.os.version),
          device: [ua.device.vendor, ua.device.model].filter(Boolean).join(' ') || null,
          signedInAt: new Date(signedInAt).toISOString(),
          lastSeenAt: new Date(data.lastSeenAt ?? signedInAt).toISOString(),
        };
        return [session];
      })
      .sort((a, b) => b.signedInAt.localeCompare(a.signedInAt));
  }

  /** Ends the user's session that `ref` (sessionRef) names; never the one asking. */
  async endByRef(userId: string, ref: string, currentSid: string): Promise<number> {
    const sid = (await this.redis.smembers(userIndexKey(userId))).find((s) => sessionRef(s) === ref);
    if (!sid || !(await this.load(sid))) throw new AppError('session_not_found', 'No such session');
    if (sid === currentSid) throw new AppError('session_is_current', 'This is the session you are using: sign out instead');
    return this.end(userId, [sid]);
  }

  async signOut(req: Request): Promise<void> {
    const userId = req.user?.id;
    const sid = req.sessionID;
    // Announced before the session is gone, so a stream's heartbeat cannot see the missing key
    // first and end it as 'expired' instead of 'signed_out'.
    if (userId) await this.announceEnded(userId, [sid]);
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    req.user = undefined;
    if (userId) await this.redis.srem(userIndexKey(userId), sid);
  }

  /** Ends every session of the user but `keepSid` (password change keeps the one that made it). */
  async endOtherSessions(userId: string, keepSid?: string): Promise<number> {
    const sids = await this.redis.smembers(userIndexKey(userId));
    return this.end(
      userId,
      sids.filter((sid) => sid !== keepSid),
    );
  }

  endAllSessions(userId: string): Promise<number> {
    return this.endOtherSessions(userId);
  }

  /**
   * Ends the user's sessions signed in before `before`, except the one `keepRef` names. For an
   * event that may arrive late: a session signed in since (with the new password) stays.
   */
  async endSessionsSignedInBefore(userId: string, before: Date, keepRef?: string): Promise<number> {
    const sids = await this.redis.smembers(userIndexKey(userId));
    const doomed: string[] = [];
    const gone: string[] = [];
    for (const sid of sids) {
      if (keepRef !== undefined && sessionRef(sid) === keepRef) continue;
      const data = await this.load(sid);
      const signedInAt = data?.passport?.user?.signedInAt;
      if (!data) gone.push(sid);
      else if (signedInAt === undefined || signedInAt <= before.getTime()) doomed.push(sid);
    }
    if (gone.length) await this.redis.srem(userIndexKey(userId), ...gone);
    return this.end(userId, doomed);
  }

  private async end(userId: string, sids: string[]): Promise<number> {
    // Announced first, for the same reason as in signOut.
    await this.announceEnded(userId, sids);
    await Promise.all(sids.map((sid) => new Promise<void>((resolve) => this.store.destroy(sid, () => resolve()))));
    if (sids.length) await this.redis.srem(userIndexKey(userId), ...sids);
    return sids.length;
  }

  /** The live streams of these sessions end, on whichever replica holds them. */
  private async announceEnded(userId: string, sids: string[]): Promise<void> {
    if (sids.length === 0) return;
    const message: SessionsEnded = { userId, refs: sids.map(sessionRef) };
    // The sessions are over whether or not this reaches anyone: a stream also ends at its next heartbeat.
    await this.redis.publish(this.endedChannel, JSON.stringify(message)).catch((err: Error) => this.log.warn(`could not announce ended sessions: ${err.message}`));
  }

  private load(sid: string): Promise<SessionData | null> {
    return new Promise((resolve, reject) =>
      this.store.get(sid, (err: unknown, data?: SessionData | null) => (err ? reject(err) : resolve(data ?? null))),
    );
  }
}
