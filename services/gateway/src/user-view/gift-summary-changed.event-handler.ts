import { EventPayload, GiftSummaryChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';
import { UserViewCache } from './user-view-cache';

/** esim's part of the view (data gifted, last eSIM and plan), if newer than the one held. */
@EventHandler(GiftSummaryChanged)
export class GiftSummaryChangedEventHandler implements EventHandler<typeof GiftSummaryChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly hub: LiveHub,
  ) {}

  async handle({ userId, summary, version }: EventPayload<typeof GiftSummaryChanged>): Promise<void> {
    const { changed } = await this.cache.apply(userId, [{ part: 'gifts', version, value: summary }]);
    if (changed) await this.hub.announce(userId, null);
  }
}
