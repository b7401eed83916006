import { Inject } from '@nestjs/common';
import { EventEnvelope, EventPayload, LineDataLow, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';

/**
 * A low-data alert (docs/wallet.md, "Low-data alerts"), sent only as the user's switches allow:
 * nothing without `dataAlerts`; by email with `emailNotifications`. The job id is the event id,
 * so a redelivered event never sends twice.
 */
@EventHandler(LineDataLow)
export class LineDataLowEventHandler implements EventHandler<typeof LineDataLow> {
  constructor(
    private readonly emails: EmailQueue,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof LineDataLow>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    if (!to.settings.dataAlerts) return;
    if (to.settings.emailNotifications) {
      await this.emails.enqueue(
        {
          kind: 'dataLow',
          to: to.email,
          locale: to.locale,
          data: {
            name: to.name,
            last4: p.iccid.slice(-4),
            remainingMb: p.remainingMb,
            usedPercent: p.usedPercent,
            appUrl: new URL('/esims', this.config.PUBLIC_URL).toString(),
            settingsUrl: new URL('/profile', this.config.PUBLIC_URL).toString(),
          },
        },
        envelope.id,
      );
    }
  }
}
