import { EventPayload, ProvisioningSucceeded } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Redemptions } from './redemptions';

/** esim delivered a redemption's data: the reservation is posted (spent). Gift claims are esim's alone. */
@EventHandler(ProvisioningSucceeded)
export class ProvisioningSucceededEventHandler implements EventHandler<typeof ProvisioningSucceeded> {
  constructor(private readonly redemptions: Redemptions) {}

  async handle(payload: EventPayload<typeof ProvisioningSucceeded>, tx: Tx): Promise<void> {
    if (payload.source === 'points') await this.redemptions.succeeded(tx, payload);
  }
}
