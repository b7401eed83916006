import { EventPayload, GiftSummaryChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';
import { UserViewCache } from './user-view-cache';

type Summary = EventPayload<typeof GiftSummaryChanged>;

/**
 * esim's part of the view (data gifted, last eSIM and plan), if newer than the one held. Applied
 * in groups: only each user's latest summary is written, and their pages are told once.
 */
@EventHandler(GiftSummaryChanged)
export class GiftSummaryChangedEventHandler implements EventHandler<typeof GiftSummaryChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly announcer: LiveAnnouncer,
  ) {}

  async handle(payload: Summary): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Summary }>): Promise<void> {
    const changed = await this.cache.applyLatest(
      events.map(({ payload: { userId, summary, version } }) => ({ userId, part: { part: 'gifts' as const, version, value: summary } })),
    );
    await this.announcer.announceAll(changed.map((userId) => ({ userId, happened: null })));
  }
}
