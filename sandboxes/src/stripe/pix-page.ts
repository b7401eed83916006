import escapeHtml from 'escape-html';
import type Stripe from 'stripe';
import { SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';

const esc = (value: string | number) => escapeHtml(String(value));

/**
 * The hosted instructions page of a sandbox Pix code (`hosted_instructions_url`): the QR code,
 * the copy-and-paste code, and, in place of a bank app, the two buttons that settle it — pay now,
 * or let it expire — after which the emulator sends the signed webhook as Stripe does.
 */
export function renderPixPage(pi: Partial<Stripe.PaymentIntent>, clientSecret: string, notice: string | undefined): string {
  const code = pi.next_action?.type === 'pix_display_qr_code' ? pi.next_action.pix_display_qr_code : undefined;
  const base = `${SANDBOX_STRIPE_BASE_PATH}/pix/${esc(pi.id ?? '')}`;
  const amount = `R$ ${((pi.amount ?? 0) / 100).toFixed(2).replace('.', ',')}`;
  const form = (verb: 'pay' | 'expire', label: string) => `
      <form method="post" action="${base}/${verb}">
        <input type="hidden" name="client_secret" value="${esc(clientSecret)}">
        <button type="submit">${label}</button>
      </form>`;
  const body = code
    ? `<p>Pix ${esc(amount)} · expires ${esc(new Date((code.expires_at ?? 0) * 1000).toISOString())}</p>
      <img src="${base}/qr.png?client_secret=${encodeURIComponent(clientSecret)}" alt="Pix QR code" width="240" height="240">
      <label for="code">Pix copy and paste</label>
      <textarea id="code" readonly rows="4">${esc(code.data ?? '')}</textarea>
      <div class="actions">${form('pay', 'Simulate payment (bank app)')}${form('expire', 'Let the code expire')}</div>`
    : `<p>This payment has no Pix code waiting: its status is <b>${esc(pi.status ?? 'unknown')}</b>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stripe sandbox · Pix</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:1rem auto;padding:0 1rem;color:#1a1a1a}
textarea{width:100%;font-family:monospace}.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button{min-height:44px;padding:0 1rem}.notice{background:#eef6ee;padding:.5rem}</style></head>
<body><main><h1>Stripe sandbox: Pix</h1>
<p>Test mode: no money moves. The buttons stand in for the buyer's bank app.</p>
${notice ? `<p class="notice" role="status">${esc(notice)}</p>` : ''}${body}
</main></body></html>`;
}
