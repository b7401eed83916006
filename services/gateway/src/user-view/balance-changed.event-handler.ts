import { BalanceChanged, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';
import { UserViewCache } from './user-view-cache';

type Balance = EventPayload<typeof BalanceChanged>;

/**
 * The ledger's balance (spendable, held, next releases), if newer than the one held: from here on GET /api/user and the open pages
 * show what the ledger says. An older or repeated event changes nothing and is not pushed. Applied
 * in groups: only each user's latest balance is written, and their pages are told once.
 */
@EventHandler(BalanceChanged)
export class BalanceChangedEventHandler implements EventHandler<typeof BalanceChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly announcer: LiveAnnouncer,
  ) {}

  async handle(payload: Balance): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Balance }>): Promise<void> {
    const changed = await this.cache.applyLatest(
      events.map(({ payload: { userId, points, version, pendingPoints, pendingReleases } }) => ({
        userId,
        // An event from before held credits carries none: nothing held.
        part: { part: 'balance' as const, version, value: { points, pendingPoints: pendingPoints ?? 0, pendingReleases: pendingReleases ?? [] } },
      })),
    );
    await this.announcer.announceAll(changed.map((userId) => ({ userId, happened: null })));
  }
}
