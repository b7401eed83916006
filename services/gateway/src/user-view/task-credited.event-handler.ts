import { EventPayload, TaskCredited } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';

/** '+250 MB from CPX Research' on the user's open pages (the points follow in BalanceChanged). */
@EventHandler(TaskCredited)
export class TaskCreditedEventHandler implements EventHandler<typeof TaskCredited> {
  constructor(private readonly hub: LiveHub) {}

  async handle({ userId, points, provider }: EventPayload<typeof TaskCredited>): Promise<void> {
    await this.hub.announce(userId, { kind: 'points-credited', points, provider });
  }
}
