import type { Client } from 'pg';
import type Stripe from 'stripe';
import { waitFor } from '@esim/testing';
import { KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_API_PATH } from '../../services/esim/src/keepgo/keepgo-api';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { confirmPurchase, confirmWithPix, createPayment, keepGoControl, paymentsDb, payWithVisa, serverStripe, settlePix } from './purchases-support';

/**
 * Self-serve refunds (docs/payments.md, "Refunds"), over HTTP as My eSIMs asks for them, with
 * payments, esim, the Stripe emulator's refunds and the KeepGo emulator's lines: an eSIM never
 * installed nor used is refunded once however many requests race, its line cancelled at KeepGo
 * and in esim's wallet (no usage reads after); a used or installed one, an old one or someone
 * else's is not, and nothing moves. Each purchase listed says beforehand whether a refund is
 * offered, and why not, from KeepGo's report of the line.
 */
describe('self-serve refunds', () => {
  let sys: System;
  let db: Client;
  let esimDb: Client;
  let stripe: Stripe;
  let ana: HttpClient;
  let anaEmail = '';
  let bruno: HttpClient;
  let admin: HttpClient;
  const adminEmail = `refunds-admin-${Date.now()}@example.com`;

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'esim', 'payments', 'notifications', 'webhooks'],
      // The background usage watch passes every second, and the eligibility reads KeepGo afresh each time.
      env: { PURCHASE_CONFIRM_WAIT_MS: '10000', ADMIN_EMAILS: adminEmail, ESIM_USAGE_CHECK_SECONDS: '1', ESIM_LINE_USAGE_REFRESH_SECONDS: '0' },
    });
    db = await paymentsDb(sys);
    esimDb = await paymentsDb(sys, 'esim');
    stripe = serverStripe(sys);
    ana = sys.client();
    bruno = sys.client();
    anaEmail = (await signUp(ana, sys.mail, { name: 'Ana', locale: 'pt' })).email;
    await signUp(bruno, sys.mail, { name: 'Bruno' });
    admin = sys.client();
    await signUp(admin, sys.mail, { name: 'Operator', email: adminEmail });
  }, 180_000);
  afterAll(async () => {
    await esimDb?.end();
    await db?.end();
    await sys?.stop();
  });

  /** A purchase paid and activated, by card or by Pix. */
  async function bought(method: 'card' | 'pix'): Promise<{ purchaseId: string; paymentIntentId: string; iccid: string }> {
    const payment = await createPayment(ana, { planType: '1GB', country: 'BR', paymentMethod: method });
    if (method === 'card') expect((await payWithVisa(sys, payment)).status).toBe(200);
    else {
      expect((await confirmWithPix(sys, payment)).status).toBe(200);
      expect((await settlePix(sys, payment, 'pay')).status).toBe(200);
    }
    const confirmed = (await confirmPurchase(ana, payment.paymentIntentId)).json();
    expect(confirmed).toMatchObject({ status: 'activated' });
    return { purchaseId: payment.purchaseId, paymentIntentId: payment.paymentIntentId, iccid: confirmed.iccid };
  }
  const refund = (client: HttpClient, purchaseId: string) => client.post(`/api/esim-purchases/${purchaseId}/refund`, {});
  /** Refunds Stripe made of this intent (the emulator's refund.created events). */
  const stripeRefunds = async (paymentIntentId: string) =>
    (await stripe.events.list({ type: 'refund.created', limit: 100 })).data.filter((e) => (e.data.object as Stripe.Refund).payment_intent === paymentIntentId);
  const lineStatus = async (iccid: string) => {
    const res = await fetch(`${sys.sandboxes.url}${KEEPGO_SANDBOX_API_PATH}/line/${iccid}/get_details`, {
      headers: { apiKey: KEEPGO_SANDBOX_API_KEY, accessToken: KEEPGO_SANDBOX_ACCESS_TOKEN },
    });
    return ((await res.json()) as { sim_card: { status: string } }).sim_card.status;
  };
  const purchaseStatus = async (purchaseId: string) => (await db.query('SELECT status FROM esim_purchases WHERE id = $1', [purchaseId])).rows[0].status;
  const refundRows = async (purchaseId: string) => (await db.query('SELECT * FROM purchase_refunds WHERE purchase_id = $1', [purchaseId])).rows;
  const listed = async (purchaseId: string) => (await ana.get('/api/esim-purchases')).json().find((p: { id: string }) => p.id === purchaseId);
  /** When the background usage watch last read the line from KeepGo (null: never). */
  const lastChecked = async (iccid: string): Promise<number | null> => {
    const [row] = (await esimDb.query('SELECT checked_at FROM line_usage_checks WHERE iccid = $1', [iccid])).rows;
    return row?.checked_at ? new Date(row.checked_at).getTime() : null;
  };

  it('offers a refund within the window on an activated purchase', async () => {
    const { purchaseId } = await bought('card');
    const entry = await listed(purchaseId);
    const until = Date.parse(entry.refundableUntil);
    expect(until - Date.parse(entry.createdAt)).toBeGreaterThan(6.9 * 86_400_000);
    expect(until - Date.parse(entry.createdAt)).toBeLessThan(7.1 * 86_400_000);
    expect(entry.refundedAt).toBeNull();
    // KeepGo reports the line untouched: the button is offered before anything is clicked.
    expect(entry.refund).toEqual({ eligible: true, reason: null, until: entry.refundableUntil });
  });

  it('two refund requests at once refund a Pix purchase once, and cancel its line at KeepGo', async () => {
    const { purchaseId, paymentIntentId, iccid } = await bought('pix');
    expect(await lineStatus(iccid)).toBe('Registered');

    const answers = await Promise.all([refund(ana, purchaseId), refund(ana, purchaseId), refund(ana, purchaseId)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const a of answers) expect(a.json()).toMatchObject({ purchaseId, amount: 1490, currency: 'BRL', status: expect.stringMatching(/^(refunded|refund_pending)$/) });
    expect(answers.filter((a) => a.json().status === 'refunded').length).toBeGreaterThanOrEqual(1);

    await waitFor(async () => (await purchaseStatus(purchaseId)) === 'refunded', { what: 'the purchase to be refunded' });
    expect(await stripeRefunds(paymentIntentId)).toHaveLength(1);
    const rows = await refundRows(purchaseId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 1490, currency: 'brl', stripe_refund_id: expect.stringMatching(/^re_/) });
    expect(await lineStatus(iccid)).toBe('Deactivated');

    // Asked again later (another device): the same refund, nothing new.
    const again = await refund(ana, purchaseId);
    expect(again.json()).toMatchObject({ status: 'refunded', refundedAt: expect.any(String) });
    expect(await stripeRefunds(paymentIntentId)).toHaveLength(1);
    expect(await listed(purchaseId)).toMatchObject({
      status: 'refunded',
      refundedAt: expect.any(String),
      refundableUntil: null,
      paymentMethod: 'pix',
      refund: { eligible: false, reason: 'already_refunded' },
    });
    // esim's own line is cancelled: listed so, never read from KeepGo again, usage refused.
    const line = (await ana.get('/api/esim-lines')).json().lines.find((l: { iccid: string }) => l.iccid === iccid);
    expect(line).toMatchObject({ source: 'bought', status: 'cancelled', cancelledAt: expect.any(String) });
    const usage = await ana.get(`/api/esim-lines/${iccid}/usage?refresh=true`);
    expect(usage.status).toBe(409);
    expect(usage.json()).toMatchObject({ reason: 'line_cancelled' });
    // Another line of hers is read by the watch twice more; the cancelled one not once.
    const { iccid: other } = await bought('card');
    const cancelledSeen = await lastChecked(iccid);
    const since = Date.now();
    await waitFor(async () => ((await lastChecked(other)) ?? 0) > since, { what: 'the watch to read the active line', timeoutMs: 30_000 });
    const once = (await lastChecked(other))!;
    await waitFor(async () => ((await lastChecked(other)) ?? 0) > once, { what: 'the watch to read the active line again', timeoutMs: 30_000 });
    expect(await lastChecked(iccid)).toBe(cancelledSeen);
    // One email, in the buyer's language: the Pix refund goes back to the paying account.
    const mail = await sys.mail.waitForMail(anaEmail, { subject: /^Reembolsamos seu eSIM de 1 GB$/ });
    expect(mail.text.replace(/\s/g, ' ')).toContain('reembolsamos R$ 14,90 do seu eSIM de 1 GB');
    expect(mail.text).toContain('O reembolso volta para a conta que pagou o Pix');
    expect(mail.text).toContain(purchaseId);
    expect(sys.mail.mailsTo(anaEmail).filter((m) => m.subject.startsWith('Reembolsamos') && m.text.includes(purchaseId))).toHaveLength(1);
    // The admin console lists it, with who asked.
    const console = await admin.get('/api/admin/refunds');
    expect(console.status).toBe(200);
    expect(console.json().refunds.filter((r: { purchaseId: string }) => r.purchaseId === purchaseId)).toEqual([
      expect.objectContaining({ amount: 1490, currency: 'BRL', paymentMethod: 'pix', status: 'succeeded', stripeRefundId: rows[0].stripe_refund_id, user: expect.objectContaining({ email: anaEmail }) }),
    ]);
    expect((await ana.get('/api/admin/refunds')).status).toBe(403);
    // The database itself refuses a second refund row of a purchase.
    await expect(db.query(`INSERT INTO purchase_refunds (purchase_id, user_id, amount, currency) SELECT id, user_id, price_usd, currency FROM esim_purchases WHERE id = $1`, [purchaseId])).rejects.toThrow(/duplicate key/);
  });

  it.each([
    ['used', { usedMb: 5 }],
    ['installed', { installed: true }],
  ] as const)('a %s line is not refundable: nothing is refunded nor cancelled', async (why, use) => {
    const { purchaseId, paymentIntentId, iccid } = await bought('card');
    await keepGoControl(sys, { line: { iccid, ...use } });
    // My eSIMs opened afterwards says why no refund is offered, from KeepGo's report.
    expect((await listed(purchaseId)).refund).toEqual({ eligible: false, reason: why, until: expect.any(String) });
    const res = await refund(ana, purchaseId);
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ reason: 'refund_not_allowed', details: { why } });
    expect(await stripeRefunds(paymentIntentId)).toHaveLength(0);
    expect(await purchaseStatus(purchaseId)).toBe('activated');
    expect(await refundRows(purchaseId)).toHaveLength(0);
    expect(await lineStatus(iccid)).not.toBe('Deactivated');
  });

  it('refuses a purchase paid longer ago than the window, and someone else’s', async () => {
    const { purchaseId, paymentIntentId } = await bought('card');
    expect((await refund(bruno, purchaseId)).json()).toMatchObject({ reason: 'payment_not_found' });
    await db.query(`UPDATE esim_purchases SET paid_at = now() - interval '8 days', created_at = now() - interval '8 days' WHERE id = $1`, [purchaseId]);
    const res = await refund(ana, purchaseId);
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ reason: 'refund_not_allowed', details: { why: 'window_passed' } });
    expect(await stripeRefunds(paymentIntentId)).toHaveLength(0);
    const entry = await listed(purchaseId);
    expect(Date.parse(entry.refundableUntil)).toBeLessThan(Date.now());
    expect(entry.refund).toEqual({ eligible: false, reason: 'window_passed', until: entry.refundableUntil });
  });
});
