import { EventEnvelope, EventPayload, LineDataLow } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { AccountNotices } from '../notices/account-notices.service';
import { interpolate, messages } from '../templates/render-email';

/**
 * A low-data alert (docs/wallet.md, "Low-data alerts"), sent only as the user's switches allow:
 * nothing without `dataAlerts`; by email with `emailNotifications`, by Web Push with
 * `pushNotifications`. The email's job id is the event id, so a redelivered event never emails
 * twice.
 */
@EventHandler(LineDataLow)
export class LineDataLowEventHandler implements EventHandler<typeof LineDataLow> {
  constructor(private readonly notices: AccountNotices) {}

  async handle(p: EventPayload<typeof LineDataLow>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const vars = { last4: p.iccid.slice(-4), remainingMb: p.remainingMb, usedPercent: p.usedPercent };
    await this.notices.notice(
      p.userId,
      {
        what: `low-data alert ${p.alertId}`,
        allowed: (s) => s.dataAlerts,
        email: (to) => ({
          kind: 'dataLow',
          data: { name: to.name, ...vars, appUrl: this.notices.url('/esims'), settingsUrl: this.notices.url('/profile') },
        }),
        push: (to) => {
          const m = messages(to.locale, 'dataLow');
          return { title: m.pushTitle, body: interpolate(m.pushBody, vars), why: m.pushWhy, url: '/esims', tag: `data-low:${p.iccid}` };
        },
      },
      { jobId: envelope.id },
    );
  }
}
