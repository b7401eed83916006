import { EventPayload, PurchaseEsimIssued } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveHub } from './live-hub';

/** 'Your eSIM is ready' on the user's open pages when a bought eSIM was issued. */
@EventHandler(PurchaseEsimIssued)
export class PurchaseEsimIssuedEventHandler implements EventHandler<typeof PurchaseEsimIssued> {
  constructor(private readonly hub: LiveHub) {}

  async handle({ userId, iccid }: EventPayload<typeof PurchaseEsimIssued>): Promise<void> {
    await this.hub.announce(userId, { kind: 'esim-ready', iccid });
  }
}
