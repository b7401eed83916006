import { AutoTopupSettled, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/**
 * An automatic top-up that did not run is said on the user's open pages (docs/wallet.md, "Telling
 * the user"). One that ran says nothing here: its delivery is the top-up's usual notice
 * (`esim-topped-up`, from ProvisioningSucceeded), so it is told once.
 */
@EventHandler(AutoTopupSettled)
export class AutoTopupSettledEventHandler implements EventHandler<typeof AutoTopupSettled> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, iccid, outcome }: EventPayload<typeof AutoTopupSettled>): Promise<void> {
    if (outcome === 'requested') return;
    await this.announcer.announce(userId, { kind: 'auto-topup-refused', last4: iccid.slice(-4), reason: outcome });
  }
}
