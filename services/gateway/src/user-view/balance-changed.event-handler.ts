import { BalanceChanged, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';
import { UserViewCache } from './user-view-cache';

/**
 * The ledger's balance, if newer than the one held: from here on GET /api/user and the open pages
 * show what the ledger says. An older or repeated event changes nothing and is not pushed.
 */
@EventHandler(BalanceChanged)
export class BalanceChangedEventHandler implements EventHandler<typeof BalanceChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly hub: LiveHub,
  ) {}

  async handle({ userId, points, version }: EventPayload<typeof BalanceChanged>): Promise<void> {
    const { changed } = await this.cache.apply(userId, [{ part: 'points', version, value: points }]);
    if (changed) await this.hub.announce(userId, null);
  }
}
