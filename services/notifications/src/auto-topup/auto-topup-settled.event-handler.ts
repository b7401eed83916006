import { AutoTopupSettled, EventEnvelope, EventPayload } from '@esim/contracts';
import { EventHandler } from '@esim/platform';
import { AccountNotices } from '../notices/account-notices.service';
import { interpolate, messages } from '../templates/render-email';

/**
 * Tells the user how an automatic top-up of their line ended (docs/wallet.md, "Telling the
 * user"): the points taken and the GB on its way, or why nothing was done (not enough spendable
 * points, the month's cap reached). By email with `emailNotifications`, by Web Push with
 * `pushNotifications`; the rule itself is what the user turned on, so no other switch gates it.
 * esim announces each trigger once; the email's job id is the event id.
 */
@EventHandler(AutoTopupSettled)
export class AutoTopupSettledEventHandler implements EventHandler<typeof AutoTopupSettled> {
  constructor(private readonly notices: AccountNotices) {}

  async handle(p: EventPayload<typeof AutoTopupSettled>, _tx: unknown, envelope: EventEnvelope): Promise<void> {
    const vars = { last4: p.iccid.slice(-4), remainingMb: p.remainingMb, amountGB: p.amountGB, points: p.points, monthlyCap: p.monthlyCap };
    await this.notices.notice(
      p.userId,
      {
        what: `auto top-up ${p.triggerId} (${p.outcome})`,
        email: (to) => ({
          kind: 'autoTopup',
          data: {
            name: to.name,
            outcome: p.outcome,
            ...vars,
            appUrl: this.notices.url('/esims'),
            settingsUrl: this.notices.url('/profile'),
          },
        }),
        push: (to) => {
          const m = messages(to.locale, 'autoTopup');
          const requested = p.outcome === 'requested';
          const body = requested ? m.pushRequested : p.outcome === 'no_points' ? m.pushNoPoints : m.pushCapped;
          return {
            title: interpolate(requested ? m.subjectRequested : m.subjectRefused, vars),
            body: interpolate(body, vars),
            why: m.pushWhy,
            url: '/esims',
            tag: `auto-topup:${p.iccid}`,
          };
        },
      },
      { jobId: envelope.id, forgetOnDeletion: true },
    );
  }
}
