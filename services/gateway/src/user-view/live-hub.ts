import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { UserViewService } from '../auth/user-view.service';
import { InjectRedis } from '../sessions/redis.provider';
import { SESSION_STORE_PREFIX } from '../sessions/session.middleware';
import { sessionsEndedChannel, type SessionsEnded } from '../sessions/session.service';
import type { LiveChangeMessage } from './live-announcer';
import { LiveStream } from './live-stream';
import { UserViewKeys } from './user-view-keys';

/**
 * The live streams this replica holds, and the fan-out between replicas (docs/live-view.md).
 *
 * A change is announced on Redis pub/sub, on the user's own channel (LiveAnnouncer), by whichever
 * replica consumed the event or rebuilt the view; every replica holding a stream of that user is
 * subscribed to that channel (from its first stream of the user to its last) and pushes the view,
 * read from the read model, to each stream. A replica never receives the changes of users it
 * holds no stream for.
 *
 * Sessions end on any replica (sign-out, password change, deletion): SessionService announces
 * them on one channel every replica listens to, and the streams of those sessions end. A session
 * that simply expired is noticed at the next heartbeat (its key is gone, or its absolute lifetime
 * is over).
 */
/** The cap a refused live stream ran into. */
export type LiveStreamCap = 'user' | 'address' | 'gateway';

@Injectable()
export class LiveHub implements OnModuleInit, BeforeApplicationShutdown {
  private readonly log = new Logger('LiveHub');
  private readonly streams = new Map<string, Set<LiveStream>>();
  /** Streams held per client network, whichever users hold them (LIVE_STREAMS_PER_ADDRESS). */
  private readonly perNetwork = new Map<string, number>();
  private total = 0;
  /** Pushes to one user's streams, in order (an initial view never overtakes a later change). */
  private readonly queues = new Map<string, Promise<void>>();
  /** Each held user's channel subscription, confirmed or on its way. */
  private readonly subscriptions = new Map<string, Promise<unknown>>();
  private readonly subscriber: Redis;
  private readonly endedChannel: string;
  private readonly prefix: string;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    @InjectRedis() private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly views: UserViewService,
  ) {
    this.prefix = config.REDIS_PREFIX;
    this.endedChannel = sessionsEndedChannel(config.REDIS_PREFIX);
    // A connection in subscriber mode can do nothing else: its own.
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', (err: Error) => this.log.warn(`subscriber: ${err.message}`));
    this.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
  }

  async onModuleInit(): Promise<void> {
    await this.subscriber.subscribe(this.endedChannel);
    this.heartbeat = setInterval(() => void this.beat(), this.config.LIVE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    // No `end` event: the pages reconnect, to another replica if this one does not come back.
    for (const set of this.streams.values()) for (const stream of set) stream.close();
    this.streams.clear();
    this.perNetwork.clear();
    this.total = 0;
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  /** How many streams this replica holds (all users, or one). */
  count(userId?: string): number {
    if (userId !== undefined) return this.streams.get(userId)?.size ?? 0;
    return this.total;
  }

  /**
   * Which cap, if any, one more stream of this user from this client network would pass here:
   * the user's (one per open page), the network's (many accounts behind one address held 30×16
   * streams), or the replica's (each stream is an open socket). Undefined: there is room.
   */
  refusal(userId: string, network: string): LiveStreamCap | undefined {
    if (this.total >= this.config.LIVE_STREAMS_PER_GATEWAY) return 'gateway';
    if ((this.perNetwork.get(network) ?? 0) >= this.config.LIVE_STREAMS_PER_ADDRESS) return 'address';
    if (this.count(userId) >= this.config.LIVE_STREAMS_PER_USER) return 'user';
    return undefined;
  }

  /**
   * Holds the stream until the page goes away or the session ends, and sends the current view
   * first. The channel is subscribed before the view is read, so no change falls in between.
   */
  async attach(stream: LiveStream): Promise<void> {
    const { userId } = stream;
    let set = this.streams.get(userId);
    if (!set) {
      set = new Set();
      this.streams.set(userId, set);
      this.subscriptions.set(userId, this.subscriber.subscribe(UserViewKeys.changes(this.prefix, userId)));
    }
    set.add(stream);
    this.total++;
    this.perNetwork.set(stream.network, (this.perNetwork.get(stream.network) ?? 0) + 1);
    await this.subscriptions.get(userId);
    this.enqueue(userId, async () => {
      const user = await this.views.current(userId);
      stream.send('user', { user, happened: null });
    });
  }

  detach(stream: LiveStream): void {
    const set = this.streams.get(stream.userId);
    if (!set?.delete(stream)) return;
    this.total--;
    const left = (this.perNetwork.get(stream.network) ?? 1) - 1;
    if (left > 0) this.perNetwork.set(stream.network, left);
    else this.perNetwork.delete(stream.network);
    if (set.size > 0) return;
    this.streams.delete(stream.userId);
    this.subscriptions.delete(stream.userId);
    void this.subscriber.unsubscribe(UserViewKeys.changes(this.prefix, stream.userId)).catch(() => undefined);
  }

  private onMessage(channel: string, message: string): void {
    try {
      if (channel === this.endedChannel) return this.sessionsEnded(JSON.parse(message) as SessionsEnded);
      const userId = channel.slice(UserViewKeys.changes(this.prefix, '').length);
      if (!this.streams.has(userId)) return;
      const { happened } = JSON.parse(message) as LiveChangeMessage;
      this.enqueue(userId, async () => {
        const user = await this.views.current(userId);
        for (const stream of this.streams.get(userId) ?? []) stream.send('user', { user, happened });
      });
    } catch (err) {
      this.log.warn(`unreadable message on ${channel}: ${(err as Error).message}`);
    }
  }

  private sessionsEnded({ userId, refs }: SessionsEnded): void {
    const ended = new Set(refs);
    for (const stream of this.streams.get(userId) ?? []) if (ended.has(stream.sessionRef)) stream.end('signed_out');
  }

  private enqueue(userId: string, push: () => Promise<void>): void {
    const next = (this.queues.get(userId) ?? Promise.resolve())
      .then(push)
      .catch((err: unknown) => this.log.warn(`could not push ${userId}'s view: ${(err as Error).message}`));
    this.queues.set(userId, next);
    void next.finally(() => {
      if (this.queues.get(userId) === next) this.queues.delete(userId);
    });
  }

  /** Keeps every stream alive, and ends those whose session is over. */
  private async beat(): Promise<void> {
    const all = [...this.streams.values()].flatMap((set) => [...set]);
    if (all.length === 0) return;
    const now = Date.now();
    for (const stream of all) {
      if (stream.expiresAt <= now) stream.end('expired');
      else stream.ping();
    }
    const live = all.filter((s) => s.open);
    const sids = [...new Set(live.map((s) => s.sid))];
    try {
      const pipeline = this.redis.pipeline();
      for (const sid of sids) pipeline.exists(`${SESSION_STORE_PREFIX}${sid}`);
      const results = (await pipeline.exec()) ?? [];
      const gone = new Set(sids.filter((_, i) => results[i]?.[0] === null && results[i]?.[1] === 0));
      for (const stream of live) if (gone.has(stream.sid)) stream.end('expired');
    } catch (err) {
      this.log.warn(`could not check the streams' sessions: ${(err as Error).message}`);
    }
  }
}
