import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { LiveHappening } from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { InjectRedis } from '../sessions/redis.provider';
import { UserViewKeys } from './user-view-keys';

/** What travels on a user's change channel: the view is read by each replica from Redis. */
export interface LiveChangeMessage {
  happened: LiveHappening | null;
}

/**
 * Tells every replica that a user's view changed (and what happened, for a notice), on the user's
 * own Redis channel; LiveHub, on each replica holding a stream of that user, pushes the view.
 * Apart from LiveHub because the view's rebuild (UserViewService) announces too, and LiveHub
 * reads the view through that service.
 */
@Injectable()
export class LiveAnnouncer {
  private readonly prefix: string;

  constructor(
    @InjectRedis() private readonly redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.prefix = config.REDIS_PREFIX;
  }

  async announce(userId: string, happened: LiveHappening | null): Promise<void> {
    await this.redis.publish(...this.publication(userId, happened));
  }

  /** Several announcements in one Redis round trip (a group of events, handleAll), in order. */
  async announceAll(changes: ReadonlyArray<{ userId: string; happened: LiveHappening | null }>): Promise<void> {
    if (changes.length <= 1) {
      for (const { userId, happened } of changes) await this.announce(userId, happened);
      return;
    }
    const pipeline = this.redis.pipeline();
    for (const { userId, happened } of changes) pipeline.publish(...this.publication(userId, happened));
    const failed = ((await pipeline.exec()) ?? []).find(([err]) => err);
    if (failed) throw failed[0];
  }

  /** The user's channel and the message for it. */
  private publication(userId: string, happened: LiveHappening | null): [channel: string, message: string] {
    const message: LiveChangeMessage = { happened };
    return [UserViewKeys.changes(this.prefix, userId), JSON.stringify(message)];
  }
}
