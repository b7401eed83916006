import { EventPayload, PurchaseEsimIssued } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { LiveAnnouncer } from './live-announcer';

/** 'Your eSIM is ready' on the user's open pages when a bought eSIM was issued. */
@EventHandler(PurchaseEsimIssued)
export class PurchaseEsimIssuedEventHandler implements EventHandler<typeof PurchaseEsimIssued> {
  constructor(private readonly announcer: LiveAnnouncer) {}

  async handle({ userId, iccid }: EventPayload<typeof PurchaseEsimIssued>): Promise<void> {
    await this.announcer.announce(userId, { kind: 'esim-ready', iccid });
  }
}
