import { EventPayload, ProfileChanged } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';
import { UserViewCache } from './user-view-cache';

/** Identity's part of the view (name, email, settings, language, admin flag), if newer than the one held. */
@EventHandler(ProfileChanged)
export class ProfileChangedEventHandler implements EventHandler<typeof ProfileChanged> {
  constructor(
    private readonly cache: UserViewCache,
    private readonly hub: LiveHub,
  ) {}

  async handle({ userId, user, version }: EventPayload<typeof ProfileChanged>): Promise<void> {
    const { changed } = await this.cache.apply(userId, [{ part: 'identity', version, value: user }]);
    if (changed) await this.hub.announce(userId, null);
  }
}
