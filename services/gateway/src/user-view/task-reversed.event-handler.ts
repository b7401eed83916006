import { EventPayload, TaskReversed } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';
import { pointsNotices } from './points-notices';

type Reversed = EventPayload<typeof TaskReversed>;

/**
 * A wall took a credit back: said on the user's open pages (the points follow in BalanceChanged).
 * Applied in groups like TasksCredited: one notice per user and wall, the points summed.
 */
@EventHandler(TaskReversed)
export class TaskReversedEventHandler implements EventHandler<typeof TaskReversed> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle(payload: Reversed): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Reversed }>): Promise<void> {
    await this.announcer.announceAll(pointsNotices('points-reversed', events));
  }
}
