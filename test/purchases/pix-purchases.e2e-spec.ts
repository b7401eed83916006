import type { Client } from 'pg';
import type Stripe from 'stripe';
import { PREPAID_PLANS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import {
  confirmPurchase,
  confirmWithPix,
  createPayment,
  keepGoControl,
  paymentsDb,
  payWithVisa,
  sendWebhook,
  serverStripe,
  settlePix,
  stripeEventsApplied,
} from './purchases-support';

const PIX_EXPIRES_AFTER_SECONDS = 900;

/**
 * Paying by Pix (docs/payments.md, "Pix"), over HTTP as the SPA, Stripe and a bank app do it: the
 * gateway, payments creating a Pix PaymentIntent with the official Stripe SDK, the Stripe
 * emulator answering the confirmation with a QR code and settling it (or letting it lapse) from
 * its sandbox control, its signed webhooks verified by the ingestion service and applied by
 * payments, and esim issuing the eSIM with the KeepGo emulator.
 */
describe('Pix purchases', () => {
  let sys: System;
  let db: Client;
  let stripe: Stripe;
  let ana: HttpClient;
  let anaUser: SignedUpUser;

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'esim', 'payments', 'notifications', 'webhooks'],
      env: { PURCHASE_CONFIRM_WAIT_MS: '10000', PIX_EXPIRES_AFTER_SECONDS: String(PIX_EXPIRES_AFTER_SECONDS) },
    });
    db = await paymentsDb(sys);
    stripe = serverStripe(sys);
    ana = sys.client();
    // Portuguese: the receipts are in the buyer's language.
    anaUser = await signUp(ana, sys.mail, { name: 'Ana', locale: 'pt' });
  });
  afterAll(async () => {
    await db?.end();
    await sys?.stop();
  });

  const purchaseRow = async (paymentIntentId: string) =>
    (await db.query('SELECT * FROM esim_purchases WHERE payment_intent_id = $1', [paymentIntentId])).rows[0];
  const purchaseCount = async () => Number((await db.query('SELECT count(*) FROM esim_purchases')).rows[0].count);
  /** How many times the purchase was fulfilled: PaymentSucceeded events written to the outbox. */
  const fulfilments = async (purchaseId: string) =>
    Number(
      (
        await db.query(`SELECT count(*) FROM outbox_events WHERE routing_key = 'payments.payment-succeeded.v1' AND envelope->'payload'->>'purchaseId' = $1`, [
          purchaseId,
        ])
      ).rows[0].count,
    );
  const linesCreated = async () => Number((await keepGoControl(sys)).requests?.['POST /line/create'] ?? 0);
  const quiet = () =>
    waitFor(async () => Number((await db.query(`SELECT count(*) FROM esim_purchases WHERE status = 'processing'`)).rows[0].count) === 0, {
      what: 'earlier purchases to be issued',
      timeoutMs: 20_000,
    });
  const eventOf = async (type: string, paymentIntentId: string) =>
    waitFor(
      async () => (await stripe.events.list({ type, limit: 100 })).data.find((e) => (e.data.object as Stripe.PaymentIntent).id === paymentIntentId),
      { what: `the ${type} event of ${paymentIntentId}` },
    );
  /** The receipts emailed for one purchase (they quote its reference). */
  const receiptsOf = (purchaseId: string) => sys.mail.mailsTo(anaUser.email).filter((m) => /^Seu recibo/.test(m.subject) && m.text.includes(purchaseId));
  const receipt = (purchaseId: string) =>
    waitFor(async () => receiptsOf(purchaseId)[0], { what: `the receipt of purchase ${purchaseId}`, timeoutMs: 20_000 });
  const plain = (text: string) => text.replace(/\s/g, ' ');
  const status = (paymentIntentId: string, expected: string) =>
    waitFor(async () => (await purchaseRow(paymentIntentId))?.status === expected, { what: `purchase of ${paymentIntentId} to be ${expected}`, timeoutMs: 20_000 });

  describe('creating a Pix payment', () => {
    it.each(PREPAID_PLANS.map((p) => [p.id, p.prices.BRL] as const))(
      '%s: a Pix-only intent in reais for the catalogue price (%i centavos), whatever the client sends',
      async (planType, centavos) => {
        const body = await createPayment(ana, { planType, country: 'BR', paymentMethod: 'pix', amount: 50, currency: 'usd', priceCents: 1 });
        expect(body).toMatchObject({ planType, country: 'BR', amount: centavos, amountCents: centavos, currency: 'BRL', paymentMethod: 'pix' });
        expect(await purchaseRow(body.paymentIntentId)).toMatchObject({ price_usd: centavos, currency: 'brl', payment_method: 'pix', status: 'pending', user_id: anaUser.id });
        const intent = await stripe.paymentIntents.retrieve(body.paymentIntentId);
        expect(intent).toMatchObject({ amount: centavos, currency: 'brl', payment_method_types: ['pix'], automatic_payment_methods: null, status: 'requires_payment_method' });
        expect(intent.payment_method_options?.pix).toMatchObject({ expires_after_seconds: PIX_EXPIRES_AFTER_SECONDS });
      },
    );

    it('refuses Pix where the price is not in reais with a declared 400, and records nothing', async () => {
      const before = await purchaseCount();
      const res = await ana.post('/api/create-esim-payment', { planType: '1GB', country: 'US', paymentMethod: 'pix' });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'pix_requires_brl' });
      const unknown = await ana.post('/api/create-esim-payment', { planType: '1GB', country: 'BR', paymentMethod: 'boleto' });
      expect(unknown.status).toBe(400);
      expect(await purchaseCount()).toBe(before);
    });

    it('keeps card the default, and the database refuses a Pix purchase in dollars', async () => {
      const card = await createPayment(ana, { planType: '1GB', country: 'BR' });
      expect(card.paymentMethod).toBe('card');
      expect(await purchaseRow(card.paymentIntentId)).toMatchObject({ payment_method: 'card' });
      await expect(db.query(`UPDATE esim_purchases SET currency = 'usd', payment_method = 'pix' WHERE id = $1`, [card.purchaseId])).rejects.toThrow(
        /esim_purchases_pix_brl_check/,
      );
    });
  });

  it('a Pix purchase end to end: the QR code, paid from the "bank", the webhook, one eSIM', async () => {
    await quiet();
    const linesBefore = await linesCreated();
    const payment = await createPayment(ana, { planType: '3GB', country: 'BR', paymentMethod: 'pix' });

    const started = Math.floor(Date.now() / 1000);
    const confirmed = await confirmWithPix(sys, payment);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: payment.paymentIntentId, status: 'requires_action', next_action: { type: 'pix_display_qr_code' } });
    expect(confirmed.body.metadata).toBeUndefined();
    const qr = confirmed.body.next_action.pix_display_qr_code;
    // A BR Code: EMV payload format 01, the Pix GUI, reais (986), the amount, Brazil, and its CRC.
    expect(qr.data).toMatch(/^000201/);
    expect(qr.data).toContain('br.gov.bcb.pix');
    expect(qr.data).toContain('5303986');
    expect(qr.data).toContain('540524.90');
    expect(qr.data).toMatch(/6304[0-9A-F]{4}$/);
    expect(qr.expires_at).toBeGreaterThanOrEqual(started + PIX_EXPIRES_AFTER_SECONDS);
    expect(qr.expires_at).toBeLessThanOrEqual(started + PIX_EXPIRES_AFTER_SECONDS + 5);
    expect(qr.hosted_instructions_url).toContain(`/sandbox/stripe/pix/${payment.paymentIntentId}`);
    // The emulator's own QR image and hosted page (asked of the sandboxes app, whose address PUBLIC_URL stands for here).
    const png = await fetch(qr.image_url_png.replace(/^https?:\/\/[^/]+/, sys.sandboxes.url));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const page = await fetch(qr.hosted_instructions_url.replace(/^https?:\/\/[^/]+/, sys.sandboxes.url));
    expect(await page.text()).toContain('Simulate payment');

    // Shown but not paid: nothing is fulfilled, and confirming says so.
    const early = await confirmPurchase(ana, payment.paymentIntentId);
    expect(early.status).toBe(409);
    expect(early.json()).toMatchObject({ reason: 'payment_not_succeeded', message: expect.stringContaining('requires_action') });
    expect(await purchaseRow(payment.paymentIntentId)).toMatchObject({ status: 'pending' });

    const paid = await settlePix(sys, payment, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'succeeded', next_action: null });
    // Nobody calls confirm: the webhook alone fulfils a Pix payment (the buyer paid on another device).
    await status(payment.paymentIntentId, 'activated');
    const row = await purchaseRow(payment.paymentIntentId);
    expect(row.iccid).toMatch(/^89\d{17,18}$/);
    expect(row.paid_at).not.toBeNull();
    expect(await fulfilments(payment.purchaseId)).toBe(1);
    expect(await linesCreated()).toBe(linesBefore + 1);

    const listed = (await ana.get('/api/esim-purchases')).json().find((p: { id: string }) => p.id === payment.purchaseId);
    expect(listed).toMatchObject({ paymentMethod: 'pix', priceCents: 2490, currency: 'BRL', status: 'activated', iccid: row.iccid });
    // The receipt, in Portuguese: plan, price and currency, Pix, the date, the ICCID masked, help.
    const mail = await receipt(payment.purchaseId);
    expect(mail.subject).toBe('Seu recibo: eSIM de 3 GB');
    const text = plain(mail.text);
    expect(text).toContain('Plano: eSIM de 3 GB para Brasil, válido por 30 dias');
    expect(text).toContain('Valor: R$ 24,90 (BRL)');
    expect(text).toContain('Forma de pagamento: Pix');
    expect(text).toMatch(/Data: \d{1,2} de \p{L}+ de \d{4}/u);
    expect(text).toContain(`Seu eSIM: ICCID ••••${row.iccid.slice(-4)}`);
    expect(text).not.toContain(row.iccid);
    expect(text).toContain(`Referência da compra: ${payment.purchaseId}`);
    expect(text).toMatch(/Precisa de ajuda\? Escreva para \S+@\S+/);
    expect(text).toContain('/esims');

    // /success confirming afterwards answers the eSIM, without a second one.
    expect((await confirmPurchase(ana, payment.paymentIntentId)).json()).toMatchObject({ status: 'activated', iccid: row.iccid });
    expect(await fulfilments(payment.purchaseId)).toBe(1);
  });

  it('an expired Pix code fulfils nothing; a new code for the same payment, paid, fulfils it once', async () => {
    await quiet();
    const linesBefore = await linesCreated();
    const payment = await createPayment(ana, { planType: '1GB', country: 'BR', paymentMethod: 'pix' });
    const first = await confirmWithPix(sys, payment);
    expect(first.status).toBe(200);

    const expired = await settlePix(sys, payment, 'expire');
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'payment_intent_payment_attempt_expired' } });
    await status(payment.paymentIntentId, 'payment_failed');
    expect(await purchaseRow(payment.paymentIntentId)).toMatchObject({ failure_reason: 'payment_intent_payment_attempt_expired', paid_at: null });
    // The lapsed code can no longer be paid.
    const late = await settlePix(sys, payment, 'pay');
    expect(late.status).toBe(400);
    await stripeEventsApplied(sys);
    expect(await fulfilments(payment.purchaseId)).toBe(0);
    expect(await linesCreated()).toBe(linesBefore);
    expect((await ana.get('/api/esim-purchases')).json().some((p: { id: string }) => p.id === payment.purchaseId)).toBe(false);

    // One tap on "new code": the same payment confirmed again, another code.
    const second = await confirmWithPix(sys, payment);
    expect(second.status).toBe(200);
    expect(second.body.next_action.pix_display_qr_code.data).not.toBe(first.body.next_action.pix_display_qr_code.data);
    expect((await settlePix(sys, payment, 'pay')).status).toBe(200);
    await status(payment.paymentIntentId, 'activated');
    expect(await fulfilments(payment.purchaseId)).toBe(1);
    expect(await linesCreated()).toBe(linesBefore + 1);
  });

  it('replayed and out-of-order webhooks fulfil once', async () => {
    await quiet();
    const linesBefore = await linesCreated();
    const payment = await createPayment(ana, { planType: '5GB', country: 'BR', paymentMethod: 'pix' });
    await confirmWithPix(sys, payment);
    await settlePix(sys, payment, 'expire');
    const failed = await eventOf('payment_intent.payment_failed', payment.paymentIntentId);
    await confirmWithPix(sys, payment);
    await settlePix(sys, payment, 'pay');
    const succeeded = await eventOf('payment_intent.succeeded', payment.paymentIntentId);
    await status(payment.paymentIntentId, 'activated');

    // Stripe delivers again what it already delivered (a replay)…
    expect(await sendWebhook(sys, succeeded)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    // …and, as its events are not ordered, a success under another event id and the expiry late.
    expect((await sendWebhook(sys, { ...succeeded, id: `${succeeded.id}x` })).status).toBe(200);
    expect((await sendWebhook(sys, { ...failed, id: `${failed.id}y` })).status).toBe(200);
    await stripeEventsApplied(sys);
    expect(await purchaseRow(payment.paymentIntentId)).toMatchObject({ status: 'activated', price_usd: 3490, currency: 'brl' });
    expect(await fulfilments(payment.purchaseId)).toBe(1);
    expect(await linesCreated()).toBe(linesBefore + 1);
    await receipt(payment.purchaseId);
    expect(receiptsOf(payment.purchaseId)).toHaveLength(1);
  });

  it('a card purchase gets its receipt too, in the currency it was charged', async () => {
    await quiet();
    const payment = await createPayment(ana, { planType: '5GB', country: 'US' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    await status(payment.paymentIntentId, 'activated');
    const text = plain((await receipt(payment.purchaseId)).text);
    expect(text).toContain('Valor: US$ 6,99 (USD)');
    expect(text).toContain('Forma de pagamento: cartão');
    expect(text).toContain('Estados Unidos');
  });
});
