import escapeHtml from 'escape-html';
import type { OfferwallId } from '@esim/contracts';
import type { SampleOffer } from '@esim/webhooks/dist/postbacks/providers/offerwall-provider';

/** A transaction the emulated wall paid, as the wall itself knows it. */
export interface PaidTransaction {
  transactionId: string;
  points: number;
  reversed: boolean;
}

export interface WallPage {
  provider: OfferwallId;
  name: string;
  uid: string;
  offers: readonly SampleOffer[];
  paid: readonly PaidTransaction[];
  notice?: string;
}

const NOTICES: Readonly<Record<string, string>> = {
  completed: 'Done: the wall sent a signed postback to the server, which credited your points.',
  reversed: 'Done: the wall sent a reversal postback; the points were taken back.',
  refused: 'The server refused the postback (see webhook_transactions for why).',
};

const esc = (value: string | number) => escapeHtml(String(value));

const action = (p: WallPage, verb: 'complete' | 'reverse', field: string, value: string, label: string) => `
      <form method="post" action="/sandbox/offerwalls/${p.provider}/${verb}">
        <input type="hidden" name="uid" value="${esc(p.uid)}"><input type="hidden" name="${field}" value="${esc(value)}">
        <button type="submit">${label}</button>
      </form>`;

/** The emulated wall: sample offers to complete, and the transactions it paid, to reverse. */
export function renderWallPage(p: WallPage): string {
  const notice = p.notice && NOTICES[p.notice] ? `<p class="notice">${esc(NOTICES[p.notice])}</p>` : '';
  const offers = p.offers
    .map((o) => `<li><span>${esc(o.name)} <b>+${o.points} MB</b></span>${action(p, 'complete', 'offerId', o.id, 'Complete')}</li>`)
    .join('');
  const paid = p.paid
    .map(
      (t) =>
        `<li><span>${esc(t.transactionId)} <b>${t.points} MB</b> ${t.reversed ? '(reversed)' : ''}</span>${t.reversed ? '' : action(p, 'reverse', 'transactionId', t.transactionId, 'Reverse')}</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(p.name)} (sandbox)</title>
<style>
  body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#fafafa;color:#222}
  .banner{background:#b00020;color:#fff;padding:8px 12px;border-radius:6px;font-weight:600}
  .notice{background:#e8f5e9;padding:8px 12px;border-radius:6px}
  ul{list-style:none;padding:0} li{display:flex;justify-content:space-between;align-items:center;gap:8px;padding:8px;border-bottom:1px solid #ddd}
  form{margin:0} button{padding:6px 12px;cursor:pointer}
</style></head>
<body>
  <p class="banner">SANDBOX — an emulated ${esc(p.name)} offer wall. Nothing here is real; it pays sandbox points only.</p>
  ${notice}
  <h1>${esc(p.name)} offers</h1>
  <ul>${offers}</ul>
  <h2>Paid by this wall</h2>
  <ul>${paid || '<li>Nothing yet.</li>'}</ul>
</body></html>`;
}
