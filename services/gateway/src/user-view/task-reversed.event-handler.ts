import { EventPayload, TaskReversed } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';

/** A wall took a credit back: said on the user's open pages (the points follow in BalanceChanged). */
@EventHandler(TaskReversed)
export class TaskReversedEventHandler implements EventHandler<typeof TaskReversed> {
  constructor(private readonly hub: LiveHub) {}

  async handle({ userId, points, provider }: EventPayload<typeof TaskReversed>): Promise<void> {
    await this.hub.announce(userId, { kind: 'points-reversed', points, provider });
  }
}
