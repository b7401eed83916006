import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type Redis from 'ioredis';
import RedisStore from 'connect-redis';
import { InjectRedis } from './redis.provider';

const userIndexKey = (userId: string) => `user-sessions:${userId}`;

/** Starts and ends sessions; keeps an index of each user's sessions so they can be ended server-side. */
@Injectable()
export class SessionService {
  private readonly log = new Logger('Sessions');

  constructor(
    @InjectRedis() private readonly redis: Redis,
    private readonly store: RedisStore,
  ) {}

  /** Signs the user in on a fresh session id: whatever id the browser had before is dead. */
  async signIn(req: Request, userId: string): Promise<void> {
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
    req.session.userId = userId;
    req.session.signedInAt = Date.now();
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
    await this.redis.sadd(userIndexKey(userId), req.sessionID);
    this.log.log(`session started for ${userId}`);
  }

  async signOut(req: Request): Promise<void> {
    const userId = req.session?.userId;
    const sid = req.sessionID;
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    if (userId) await this.redis.srem(userIndexKey(userId), sid);
  }

  /** Ends every session of the user but `keepSid` (password change keeps the one that made it). */
  async endOtherSessions(userId: string, keepSid?: string): Promise<number> {
    const sids = await this.redis.smembers(userIndexKey(userId));
    const doomed = sids.filter((sid) => sid !== keepSid);
    await Promise.all(doomed.map((sid) => new Promise<void>((resolve) => this.store.destroy(sid, () => resolve()))));
    if (doomed.length) await this.redis.srem(userIndexKey(userId), ...doomed);
    return doomed.length;
  }

  endAllSessions(userId: string): Promise<number> {
    return this.endOtherSessions(userId);
  }
}
