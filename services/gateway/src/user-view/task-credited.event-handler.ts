import { EventPayload, TaskCredited } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';
import { pointsNotices } from './points-notices';

type Credited = EventPayload<typeof TaskCredited>;

/**
 * '+250 MB from CPX Research' on the user's open pages (the points follow in BalanceChanged). The
 * hottest event of the gateway (every offer-wall credit, bench/postbacks.bench.mjs): applied in
 * groups, one notice per user and wall with the points summed (pointsNotices).
 */
@EventHandler(TaskCredited)
export class TaskCreditedEventHandler implements EventHandler<typeof TaskCredited> {
  constructor(private readonly hub: LiveHub) {}

  async handle(payload: Credited): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Credited }>): Promise<void> {
    await this.hub.announceAll(pointsNotices('points-credited', events));
  }
}
