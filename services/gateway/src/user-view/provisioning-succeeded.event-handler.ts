import { EventPayload, ProvisioningSucceeded } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';

/** 'Your eSIM is ready' (or the top-up landed) on the user's open pages, after a redemption or a gift claim. */
@EventHandler(ProvisioningSucceeded)
export class ProvisioningSucceededEventHandler implements EventHandler<typeof ProvisioningSucceeded> {
  constructor(private readonly hub: LiveHub) {}

  async handle({ userId, kind, iccid, amountGB }: EventPayload<typeof ProvisioningSucceeded>): Promise<void> {
    await this.hub.announce(userId, kind === 'new' ? { kind: 'esim-ready', iccid } : { kind: 'esim-topped-up', iccid, amountGB });
  }
}
