import { EventPayload, ProvisioningFailed } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { Redemptions } from './redemptions';

/** esim could not deliver: a refusal voids the reservation; an unreachable provider keeps it for an operator. */
@EventHandler(ProvisioningFailed)
export class ProvisioningFailedEventHandler implements EventHandler<typeof ProvisioningFailed> {
  constructor(private readonly redemptions: Redemptions) {}

  async handle(payload: EventPayload<typeof ProvisioningFailed>, tx: Tx): Promise<void> {
    if (payload.source === 'points') await this.redemptions.failed(tx, payload);
  }
}
