import { DataGiftGranted, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';

/** An admin gifted data: said on the user's open pages, whose gift list reads it again. */
@EventHandler(DataGiftGranted)
export class DataGiftGrantedEventHandler implements EventHandler<typeof DataGiftGranted> {
  constructor(private readonly hub: LiveHub) {}

  async handle({ userId, amountGB }: EventPayload<typeof DataGiftGranted>): Promise<void> {
    await this.hub.announce(userId, { kind: 'gift-granted', amountGB });
  }
}
