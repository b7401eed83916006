import { EventPayload, maskIccid, ProvisioningSucceeded } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/**
 * 'Your eSIM is ready' (or the top-up landed) on the user's open pages, after a redemption or a
 * gift claim. A top-up of a line outside the user's wallet names it by its masked ICCID only
 * (docs/decisions.md, "Topping up someone else's eSIM").
 */
@EventHandler(ProvisioningSucceeded)
export class ProvisioningSucceededEventHandler implements EventHandler<typeof ProvisioningSucceeded> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, kind, iccid, amountGB, ownLine }: EventPayload<typeof ProvisioningSucceeded>): Promise<void> {
    await this.announcer.announce(
      userId,
      kind === 'new' ? { kind: 'esim-ready', iccid } : { kind: 'esim-topped-up', iccid: ownLine ? iccid : maskIccid(iccid), amountGB },
    );
  }
}
