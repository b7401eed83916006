import { EventPayload, TasksCredited } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';
import { pointsNotices } from './points-notices';

type Credited = EventPayload<typeof TasksCredited>;

/**
 * '+250 MB from CPX Research' on the user's open pages (the points follow in BalanceChanged). The
 * hottest event of the gateway (every batch of offer-wall credits, bench/postbacks.bench.mjs):
 * rewards sends one per user and wall of a batch, and a group here may still hold several of them
 * for one user and wall (from several batches); applied in groups, one notice per user and wall
 * with the points summed (pointsNotices).
 */
@EventHandler(TasksCredited)
export class TasksCreditedEventHandler implements EventHandler<typeof TasksCredited> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle(payload: Credited): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Credited }>): Promise<void> {
    await this.announcer.announceAll(pointsNotices('points-credited', events));
  }
}
