import { Inject } from '@nestjs/common';
import { DataGiftGranted, EventEnvelope, EventPayload, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/**
 * "You received N GB of free data", in the user's language, with a link to claim it: the
 * dashboard's gift card (its `#gifts` anchor), whose claim button opens /iccid on the gift.
 */
@EventHandler(DataGiftGranted)
export class DataGiftGrantedEventHandler implements EventHandler<typeof DataGiftGranted> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof DataGiftGranted>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    await this.emails.enqueue(
      {
        kind: 'dataGifted',
        to: to.email,
        locale: to.locale,
        data: { name: to.name, amountGB: p.amountGB, claimUrl: new URL('/dashboard#gifts', this.config.PUBLIC_URL).toString() },
      },
      envelope.id,
      p.userId,
    );
  }
}
