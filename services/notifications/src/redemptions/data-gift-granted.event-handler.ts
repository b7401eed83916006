import { DataGiftGranted, EventEnvelope, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { AccountNotices } from '../notices/account-notices.service';

/**
 * "You received N GB of free data", in the user's language, with a link to claim it: the
 * dashboard's gift card (its `#gifts` anchor), whose claim button opens /iccid on the gift.
 */
@EventHandler(DataGiftGranted)
export class DataGiftGrantedEventHandler implements EventHandler<typeof DataGiftGranted> {
  constructor(private readonly notices: AccountNotices) {}

  async handle(p: EventPayload<typeof DataGiftGranted>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    await this.notices.email(
      p.userId,
      (to) => ({ kind: 'dataGifted', data: { name: to.name, amountGB: p.amountGB, claimUrl: this.notices.url('/dashboard#gifts') } }),
      { jobId: envelope.id, forgetOnDeletion: true },
    );
  }
}
