import { Logger } from '@nestjs/common';
import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import type Redis from 'ioredis';
import { UserViewKeys } from '../user-view/user-view-keys';
import { InjectRedis } from './redis.provider';
import { SessionService } from './session.service';

/**
 * Ends every session of a deleted account, also when the deletion's answer never reached the
 * gateway, and drops the account's live view (it holds the erased personal data).
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  private readonly log = new Logger('Sessions');

  constructor(
    private readonly sessions: SessionService,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>): Promise<void> {
    const ended = await this.sessions.endAllSessions(userId);
    await this.redis.del(UserViewKeys.view(userId));
    if (ended > 0) this.log.log(`account deleted: ended ${ended} session(s) of ${userId}`);
  }
}
