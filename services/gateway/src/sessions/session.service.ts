import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionData } from 'express-session';
import type Redis from 'ioredis';
import RedisStore from 'connect-redis';
import { CONFIG, RequestContext } from '@esim/platform';
import { sessionAbsoluteMs, type GatewayConfig } from '../config';
import { InjectRedis } from './redis.provider';

const userIndexKey = (userId: string) => `user-sessions:${userId}`;

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
    const key = userIndexKey(user.id);
    // The index lives as long as the newest session it names could: refreshed at every sign-in.
    const results = await this.redis.multi().sadd(key, req.sessionID).expire(key, this.indexTtlSeconds).exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error('session index update was discarded');
    const ctx = RequestContext.current();
    if (ctx) ctx.userId = user.id;
    this.log.log(`session started for ${user.id}`);
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
