import { EventPayload, ProvisioningSucceeded } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/** 'Your eSIM is ready' (or the top-up landed) on the user's open pages, after a redemption or a gift claim. */
@EventHandler(ProvisioningSucceeded)
export class ProvisioningSucceededEventHandler implements EventHandler<typeof ProvisioningSucceeded> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, kind, iccid, amountGB }: EventPayload<typeof ProvisioningSucceeded>): Promise<void> {
    await this.announcer.announce(userId, kind === 'new' ? { kind: 'esim-ready', iccid } : { kind: 'esim-topped-up', iccid, amountGB });
  }
}
