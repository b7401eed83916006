import { Logger } from '@nestjs/common';
import { AccountDeleted, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { SessionService } from './session.service';

/** Ends every session of a deleted account, also when the deletion's answer never reached the gateway. */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  private readonly log = new Logger('Sessions');

  constructor(private readonly sessions: SessionService) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>): Promise<void> {
    const ended = await this.sessions.endAllSessions(userId);
    if (ended > 0) this.log.log(`account deleted: ended ${ended} session(s) of ${userId}`);
  }
}
