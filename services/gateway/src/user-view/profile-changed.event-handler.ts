import { EventPayload, ProfileChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';
import { UserViewCache } from './user-view-cache';

type Profile = EventPayload<typeof ProfileChanged>;

/**
 * Identity's part of the view (name, email, settings, language, admin flag), if newer than the one
 * held. Applied in groups: only each user's latest profile is written, and their pages are told once.
 */
@EventHandler(ProfileChanged)
export class ProfileChangedEventHandler implements EventHandler<typeof ProfileChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly announcer: LiveAnnouncer,
  ) {}

  async handle(payload: Profile): Promise<void> {
    await this.handleAll([{ payload }]);
  }

  async handleAll(events: ReadonlyArray<{ payload: Profile }>): Promise<void> {
    const changed = await this.cache.applyLatest(
      events.map(({ payload: { userId, user, version } }) => ({ userId, part: { part: 'identity' as const, version, value: user } })),
    );
    await this.announcer.announceAll(changed.map((userId) => ({ userId, happened: null })));
  }
}
