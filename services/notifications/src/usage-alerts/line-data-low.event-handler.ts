import { Inject, Logger } from '@nestjs/common';
import { EventEnvelope, EventPayload, LineDataLow, RecipientRpc } from '@esim/contracts';
import { CONFIG, EventHandler, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';
import { PushSender } from '../push/push-sender';
import { messages } from '../templates/render-email';

const interpolate = (s: string, vars: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));

/**
 * A low-data alert (docs/wallet.md, "Low-data alerts"), sent only as the user's switches allow:
 * nothing without `dataAlerts`; by email with `emailNotifications`, by Web Push with
 * `pushNotifications`. The email's job id is the event id, so a redelivered event never emails
 * twice; the push is sent after the email is queued, and once the handler succeeded the inbox
 * never runs it again.
 */
@EventHandler(LineDataLow)
export class LineDataLowEventHandler implements EventHandler<typeof LineDataLow> {
  private readonly log = new Logger('LineDataLow');

  constructor(
    private readonly emails: EmailQueue,
    private readonly push: PushSender,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async handle(p: EventPayload<typeof LineDataLow>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const to = await this.rpc.call(RecipientRpc.getRecipient, { recipientId: p.userId });
    if (!to.settings.dataAlerts) return;
    const vars = { last4: p.iccid.slice(-4), remainingMb: p.remainingMb, usedPercent: p.usedPercent };
    if (to.settings.emailNotifications) {
      await this.emails.enqueue(
        {
          kind: 'dataLow',
          to: to.email,
          locale: to.locale,
          data: {
            name: to.name,
            ...vars,
            appUrl: new URL('/esims', this.config.PUBLIC_URL).toString(),
            settingsUrl: new URL('/profile', this.config.PUBLIC_URL).toString(),
          },
        },
        envelope.id,
      );
    }
    if (to.settings.pushNotifications) {
      const m = messages(to.locale, 'dataLow');
      const sent = await this.push.send(p.userId, {
        title: m.pushTitle,
        body: interpolate(m.pushBody, vars),
        why: m.pushWhy,
        url: '/esims',
        tag: `data-low:${p.iccid}`,
      });
      this.log.log(`low-data alert ${p.alertId}: pushed to ${sent} browser(s) of user ${p.userId}`);
    }
  }
}
