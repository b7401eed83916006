import { Logger } from '@nestjs/common';
import { EventPayload, PasswordChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { SessionService } from './session.service';

/**
 * Ends the user's sessions when the password changed, whether or not the request that changed it
 * got its answer (a reset or a change whose RPC timed out still took effect in identity). Sessions
 * signed in after the change stay, and so does the session that made a change (`sessionRef`).
 * Ending sessions twice ends nothing more, so a redelivery is harmless.
 */
@EventHandler(PasswordChanged)
export class PasswordChangedEventHandler implements EventHandler<typeof PasswordChanged> {
  private readonly log = new Logger('Sessions');

  constructor(private readonly sessions: SessionService) {}

  async handle({ userId, changedAt, sessionRef }: EventPayload<typeof PasswordChanged>): Promise<void> {
    const ended = await this.sessions.endSessionsSignedInBefore(userId, new Date(changedAt), sessionRef);
    if (ended > 0) this.log.log(`password changed: ended ${ended} session(s) of ${userId}`);
  }
}
