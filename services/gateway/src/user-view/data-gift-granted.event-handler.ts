import { DataGiftGranted, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/** An admin gifted data: said on the user's open pages, whose gift list reads it again. */
@EventHandler(DataGiftGranted)
export class DataGiftGrantedEventHandler implements EventHandler<typeof DataGiftGranted> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, amountGB }: EventPayload<typeof DataGiftGranted>): Promise<void> {
    await this.announcer.announce(userId, { kind: 'gift-granted', amountGB });
  }
}
