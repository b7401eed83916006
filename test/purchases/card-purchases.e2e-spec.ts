import type { Client } from 'pg';
import type Stripe from 'stripe';
import { PREPAID_PLANS, PROVISIONING_UNAVAILABLE_FRAGMENT } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import {
  browserConfirm,
  confirmPurchase,
  createPayment,
  keepGoControl,
  paymentsDb,
  payWithVisa,
  sendWebhook,
  serverStripe,
  stripeEventsApplied,
  stripeRefusalsRecorded,
  webhooksDb,
} from './purchases-support';

/**
 * Buying an eSIM by card, over HTTP as the SPA and Stripe do it: the gateway, payments with the
 * official Stripe SDK against the Stripe emulator, the emulator's signed webhooks (verified and
 * recorded by the ingestion service, applied by payments), and esim issuing the eSIM with the
 * KeepGo emulator.
 */
describe('card purchases', () => {
  let sys: System;
  let db: Client;
  /** The ingestion service's schema: Stripe's deliveries are in its webhook_transactions. */
  let wh: Client;
  let stripe: Stripe;
  let ana: HttpClient;
  let bruno: HttpClient;
  let anaUser: SignedUpUser;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'esim', 'payments', 'notifications', 'webhooks'], env: { PURCHASE_CONFIRM_WAIT_MS: '10000' } });
    db = await paymentsDb(sys);
    wh = await webhooksDb(sys);
    stripe = serverStripe(sys);
    ana = sys.client();
    bruno = sys.client();
    anaUser = await signUp(ana, sys.mail, { name: 'Ana' });
    await signUp(bruno, sys.mail, { name: 'Bruno' });
  });
  afterAll(async () => {
    await db?.end();
    await wh?.end();
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
  /** Waits until no earlier purchase is still being issued, so that counts below are this test's own. */
  const quiet = () =>
    waitFor(async () => Number((await db.query(`SELECT count(*) FROM esim_purchases WHERE status = 'processing'`)).rows[0].count) === 0, {
      what: 'earlier purchases to be issued',
      timeoutMs: 20_000,
    });
  /** Stripe's deliveries of one event id, oldest first: their outcome and whether they were handed to payments. */
  const deliveries = async (eventId: string) =>
    (
      await wh.query(`SELECT status, action FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = $1 ORDER BY created_at, status`, [
        eventId,
      ])
    ).rows;
  const accepted = (eventId: string) =>
    waitFor(async () => (await deliveries(eventId)).some((d) => d.status === 'accepted'), { what: `the delivery of ${eventId}` });
  const linesCreated = async () => Number((await keepGoControl(sys)).requests?.['POST /line/create'] ?? 0);
  const succeededEvent = async (paymentIntentId: string) =>
    waitFor(
      async () => (await stripe.events.list({ type: 'payment_intent.succeeded', limit: 100 })).data.find((e) => (e.data.object as Stripe.PaymentIntent).id === paymentIntentId),
      { what: `the payment_intent.succeeded event of ${paymentIntentId}` },
    );

  describe('creating a payment', () => {
    it.each(PREPAID_PLANS.map((p) => [p.id, p.prices.BRL] as const))(
      '%s for Brazil answers a client secret and records a pending purchase at %i centavos, in reais',
      async (planType, centavos) => {
        const res = await ana.post('/api/create-esim-payment', { planType, country: 'BR' });
        expect(res.status).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ message: expect.any(String), planType, country: 'BR', amount: centavos, amountCents: centavos, currency: 'BRL' });
        expect(body.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
        expect(body.clientSecret.startsWith(`${body.paymentIntentId}_secret_`)).toBe(true);

        expect(await purchaseRow(body.paymentIntentId)).toMatchObject({
          id: body.purchaseId,
          user_id: anaUser.id,
          plan_type: planType,
          price_usd: centavos,
          currency: 'brl',
          country: 'BR',
          status: 'pending',
        });
        const intent = await stripe.paymentIntents.retrieve(body.paymentIntentId);
        expect(intent).toMatchObject({ amount: centavos, currency: 'brl', status: 'requires_payment_method' });
        expect(intent.metadata).toEqual({ userId: anaUser.id, purchaseId: body.purchaseId, planType, country: 'BR' });
      },
    );

    it.each(['US', 'MX', 'JP'] as const)('charges a buyer in %s the catalogue price in US dollars', async (country) => {
      const plan = PREPAID_PLANS.find((p) => p.id === '5GB')!;
      // Another buyer: each payment started counts against the buyer's own limit (RATE_LIMIT_PAYMENT_USER).
      const carla = sys.client();
      await signUp(carla, sys.mail, { name: 'Carla' });
      const body = await createPayment(carla, { planType: '5GB', country });
      expect(body).toMatchObject({ amount: plan.prices.USD, amountCents: plan.prices.USD, currency: 'USD' });
      expect(await stripe.paymentIntents.retrieve(body.paymentIntentId)).toMatchObject({ amount: plan.prices.USD, currency: 'usd' });
      expect(await purchaseRow(body.paymentIntentId)).toMatchObject({ price_usd: plan.prices.USD, currency: 'usd' });
    });

    it('charges the catalogue price whatever price the client sends', async () => {
      const body = await createPayment(ana, { planType: '10GB', country: 'US', amount: 1, priceUSD: 1, price: 0.01, amountCents: 50 });
      expect(body.amountCents).toBe(1099);
      expect((await stripe.paymentIntents.retrieve(body.paymentIntentId)).amount).toBe(1099);
      expect((await purchaseRow(body.paymentIntentId)).price_usd).toBe(1099);
      // Nor the currency: Brazil pays the catalogue's reais whatever currency the client names.
      const br = await createPayment(bruno, { planType: '10GB', country: 'BR', currency: 'usd', amount: 50 });
      expect(await stripe.paymentIntents.retrieve(br.paymentIntentId)).toMatchObject({ amount: 5490, currency: 'brl' });
    });

    it('keeps only a catalogue currency on a purchase: the database refuses any other', async () => {
      const body = await createPayment(bruno, { planType: '1GB', country: 'US' });
      await expect(db.query(`UPDATE esim_purchases SET currency = 'eur' WHERE id = $1`, [body.purchaseId])).rejects.toThrow(/esim_purchases_currency_check/);
      expect(await purchaseRow(body.paymentIntentId)).toMatchObject({ currency: 'usd', price_usd: 299 });
    });

    it('refuses an unknown plan or country with a 400 and records nothing', async () => {
      const before = await purchaseCount();
      const plan = await ana.post('/api/create-esim-payment', { planType: '2GB', country: 'US' });
      expect(plan.status).toBe(400);
      expect(plan.json()).toMatchObject({ message: 'Please select a data plan' });
      const country = await ana.post('/api/create-esim-payment', { planType: '1GB', country: 'XX' });
      expect(country.status).toBe(400);
      expect(country.json()).toMatchObject({ message: 'Please choose a country' });
      expect((await ana.post('/api/create-esim-payment', {})).status).toBe(400);
      expect(await purchaseCount()).toBe(before);
    });

    it('needs a signed-in user', async () => {
      expect((await sys.client().post('/api/create-esim-payment', { planType: '1GB', country: 'US' })).status).toBe(401);
      expect((await sys.client().get('/api/esim-purchases')).status).toBe(401);
    });
  });

  describe('confirming a purchase', () => {
    it('refuses an unknown, an unpaid and someone else’s intent', async () => {
      const unknown = await confirmPurchase(ana, 'pi_doesnotexist000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.json()).toMatchObject({ reason: 'payment_not_found' });
      expect((await confirmPurchase(ana, 'not-an-intent')).status).toBe(400);

      const unpaid = await createPayment(ana, { planType: '1GB', country: 'US' });
      const early = await confirmPurchase(ana, unpaid.paymentIntentId);
      expect(early.status).toBe(409);
      expect(early.json()).toMatchObject({ reason: 'payment_not_succeeded', message: expect.stringContaining('requires_payment_method') });

      const anas = await createPayment(ana, { planType: '3GB', country: 'MX' });
      expect((await payWithVisa(sys, anas)).status).toBe(200);
      const stolen = await confirmPurchase(bruno, anas.paymentIntentId);
      expect(stolen.status).toBe(403);
      expect(stolen.json()).toMatchObject({ reason: 'payment_not_yours' });
      expect((await bruno.get('/api/esim-purchases')).json()).toEqual([]);
    });

    it('fulfils a paid intent with one eSIM and activates the purchase', async () => {
      const payment = await createPayment(ana, { planType: '3GB', country: 'BR' });
      const paid = await payWithVisa(sys, payment);
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ id: payment.paymentIntentId, status: 'succeeded' });
      expect(paid.body.metadata).toBeUndefined();

      const res = await confirmPurchase(ana, payment.paymentIntentId);
      expect(res.status).toBe(200);
      const confirmation = res.json();
      expect(confirmation).toEqual({
        success: true,
        status: 'activated',
        message: expect.any(String),
        support_message: null,
        purchaseId: payment.purchaseId,
        planType: '3GB',
        amountGB: 3,
        iccid: expect.stringMatching(/^89\d{17,18}$/),
        lpaCode: expect.stringMatching(/^LPA:1\$[^$]+\$.+/),
        qrCode: expect.stringMatching(/^data:image\/png;base64,/),
      });
      expect(await fulfilments(payment.purchaseId)).toBe(1);
      expect(await purchaseRow(payment.paymentIntentId)).toMatchObject({ status: 'activated', iccid: confirmation.iccid, lpa_code: confirmation.lpaCode });

      const listed = (await ana.get('/api/esim-purchases')).json().find((p: { id: string }) => p.id === payment.purchaseId);
      expect(listed).toMatchObject({
        planType: '3GB',
        amountGB: 3,
        priceUSD: 2490,
        priceCents: 2490,
        currency: 'BRL',
        country: 'BR',
        status: 'activated',
        iccid: confirmation.iccid,
        lpaCode: confirmation.lpaCode,
        qrCode: confirmation.qrCode,
        activatedAt: expect.any(String),
      });
    });

    it('fulfils once however often it is confirmed, in a row or 10 at once, and whatever the webhook does', async () => {
      await quiet();
      const linesBefore = await linesCreated();
      const payment = await createPayment(ana, { planType: '5GB', country: 'US' });
      expect((await payWithVisa(sys, payment)).status).toBe(200);

      // The emulator's webhook, ten confirmations at once, then three more one after another.
      const together = await Promise.all(Array.from({ length: 10 }, () => confirmPurchase(ana, payment.paymentIntentId)));
      const inRow = [];
      for (let i = 0; i < 3; i++) inRow.push(await confirmPurchase(ana, payment.paymentIntentId));
      const answers = [...together, ...inRow];
      for (const a of answers) expect(a.status).toBe(200);
      const iccids = new Set(answers.map((a) => a.json().iccid));
      expect(iccids.size).toBe(1);
      expect([...iccids][0]).toMatch(/^89/);

      // Stripe delivers the same event again, and a second event about the same payment.
      const event = await succeededEvent(payment.paymentIntentId);
      await accepted(event.id);
      const replay = await sendWebhook(sys, event);
      expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
      const again = await sendWebhook(sys, { ...event, id: `${event.id}x` });
      expect(again).toEqual({ status: 200, body: { received: true } });
      await stripeEventsApplied(sys);

      expect(await fulfilments(payment.purchaseId)).toBe(1);
      expect(await linesCreated()).toBe(linesBefore + 1);
      expect(await deliveries(event.id)).toEqual([
        { status: 'accepted', action: 'event' },
        { status: 'duplicate', action: null },
      ]);
    });

    it('a declined card leaves the purchase unpaid; paying it again with a good card fulfils it', async () => {
      const payment = await createPayment(ana, { planType: '1GB', country: 'JP' });
      const declined = await browserConfirm(sys, payment, { payment_method: 'pm_card_chargeDeclined' });
      expect(declined.status).toBe(402);
      expect(declined.body.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
      expect(declined.body.error.payment_intent).toMatchObject({ id: payment.paymentIntentId, status: 'requires_payment_method' });

      expect((await confirmPurchase(ana, payment.paymentIntentId)).json()).toMatchObject({ reason: 'payment_not_succeeded' });
      await waitFor(async () => (await purchaseRow(payment.paymentIntentId)).status === 'payment_failed', { what: 'the payment_failed webhook' });
      expect((await purchaseRow(payment.paymentIntentId)).failure_reason).toBe('generic_decline');
      expect((await ana.get('/api/esim-purchases')).json().some((p: { id: string }) => p.id === payment.purchaseId)).toBe(false);

      const card = { payment_method_data: { type: 'card', card: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2034, cvc: '123' } } };
      expect((await browserConfirm(sys, payment, card)).body).toMatchObject({ status: 'succeeded' });
      expect((await confirmPurchase(ana, payment.paymentIntentId)).json()).toMatchObject({ success: true, status: 'activated', planType: '1GB' });
      expect(await fulfilments(payment.purchaseId)).toBe(1);
    });
  });

  describe('the webhook', () => {
    /** A payment_intent.succeeded event for an intent nobody paid, as an attacker would craft it. */
    const forgedSuccess = async () => {
      const payment = await createPayment(ana, { planType: '10GB', country: 'DE' });
      const intent = await stripe.paymentIntents.retrieve(payment.paymentIntentId);
      const event = {
        id: `evt_forged${Date.now()}${Math.floor(Math.random() * 1e6)}`,
        object: 'event',
        api_version: '2025-10-29.clover',
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...intent, status: 'succeeded', amount_received: intent.amount } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'payment_intent.succeeded',
      };
      return { payment, event };
    };

    it('refuses forged, stale and unsigned deliveries, records them, and fulfils nothing', async () => {
      const { payment, event } = await forgedSuccess();
      const refusedQuery = `SELECT transaction_id, action, error FROM webhook_transactions WHERE provider = 'stripe' AND status = 'rejected_signature' ORDER BY created_at`;
      const refusedBefore = (await wh.query(refusedQuery)).rows.length;

      const forged = await sendWebhook(sys, event, { secret: 'whsec_guessed' });
      const stale = await sendWebhook(sys, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      const unsigned = await sendWebhook(sys, event, { unsigned: true });
      for (const answer of [forged, stale, unsigned]) expect(answer).toEqual({ status: 400, body: { error: { message: 'Webhook signature verification failed.' } } });

      // Nothing was handed to payments: no delivery of this event was accepted, so there is nothing to wait for.
      expect(await deliveries(event.id)).toEqual([]);
      await stripeEventsApplied(sys);
      expect((await purchaseRow(payment.paymentIntentId)).status).toBe('pending');
      expect(await fulfilments(payment.purchaseId)).toBe(0);
      const refused = await wh.query(refusedQuery);
      expect(refused.rows.length - refusedBefore).toBe(3);
      expect(refused.rows.slice(-3).map((r) => [r.transaction_id, r.action])).toEqual([
        [null, null],
        [null, null],
        [null, null],
      ]);
      expect(refused.rows.at(-2).error).toMatch(/timestamp outside the tolerance zone/i);
      expect(refused.rows.at(-1).error).toMatch(/stripe-signature/i);
      expect((await confirmPurchase(ana, payment.paymentIntentId)).status).toBe(409);
    });

    it('fulfils a paid purchase by itself, without any confirmation call, and records the delivery', async () => {
      const payment = await createPayment(ana, { planType: '1GB', country: 'FR' });
      expect((await payWithVisa(sys, payment)).status).toBe(200);
      await waitFor(async () => (await purchaseRow(payment.paymentIntentId)).status === 'activated', { what: 'activation by the webhook alone' });
      expect(await fulfilments(payment.purchaseId)).toBe(1);
      const event = await succeededEvent(payment.paymentIntentId);
      const [row] = (await wh.query(`SELECT * FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = $1`, [event.id])).rows;
      expect(row).toMatchObject({ status: 'accepted', action: 'event', user_id: anaUser.id, error: null });
      // The body exactly as signed, and the headers without ours.
      expect(JSON.parse(row.raw_payload.body)).toMatchObject({ id: event.id, type: 'payment_intent.succeeded' });
      expect(row.raw_payload.headers['stripe-signature']).toMatch(/^t=\d+,v1=/);
    });

    it("records on the delivery what payments refused (an intent no purchase knows, an amount that does not pay the purchase); a matching event stays accepted and fulfils once", async () => {
      await quiet();
      const linesBefore = await linesCreated();
      const delivery = async (eventId: string) =>
        (await wh.query(`SELECT status, action, error, processed_at, created_at FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = $1`, [eventId]))
          .rows;
      const ended = (eventId: string, status: string) =>
        waitFor(async () => (await delivery(eventId)).find((row) => row.status === status), { what: `the delivery of ${eventId} to end ${status}`, timeoutMs: 20_000 });

      // Signed with the endpoint's secret, so accepted: only payments can tell it pays for nothing of ours.
      const { event: forged } = await forgedSuccess();
      const nobodys = `pi_nobodys${Date.now()}`;
      const unknown = { ...forged, id: `${forged.id}u`, data: { object: { ...forged.data.object, id: nobodys } } };
      // A real pending purchase, and an intent that names it but pays 1 USD.
      const { payment: underpaid, event: cheap } = await forgedSuccess();
      const mismatched = { ...cheap, id: `${cheap.id}m`, data: { object: { ...cheap.data.object, amount: 100, amount_received: 100 } } };
      // A purchase paid for real: the emulator's own event.
      const paid = await createPayment(ana, { planType: '1GB', country: 'IT' });
      expect((await payWithVisa(sys, paid)).status).toBe(200);

      for (const event of [unknown, mismatched]) expect(await sendWebhook(sys, event)).toEqual({ status: 200, body: { received: true } });

      const unknownRow = await ended(unknown.id, 'rejected_unknown_payment');
      expect(unknownRow).toMatchObject({ action: 'event', error: `no purchase for ${nobodys}` });
      const mismatchRow = await ended(mismatched.id, 'rejected_payment_mismatch');
      expect(mismatchRow).toMatchObject({ action: 'event', error: `purchase ${underpaid.purchaseId} not fulfilled: intent amount 100 (received 100) is not the price 1099` });
      for (const row of [unknownRow, mismatchRow]) expect(row.processed_at.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
      expect((await purchaseRow(underpaid.paymentIntentId)).status).toBe('pending');
      expect(await fulfilments(underpaid.purchaseId)).toBe(0);

      const event = await succeededEvent(paid.paymentIntentId);
      await accepted(event.id);
      await stripeRefusalsRecorded(sys);
      await waitFor(async () => (await purchaseRow(paid.paymentIntentId)).status === 'activated', { what: 'the paid eSIM' });
      expect(await delivery(event.id)).toEqual([expect.objectContaining({ status: 'accepted', action: 'event', error: null })]);
      expect(await fulfilments(paid.purchaseId)).toBe(1);
      expect(await linesCreated()).toBe(linesBefore + 1);
    });

    it('answers the same event replayed 10 times in a row and 10 at once as a duplicate, and fulfils once', async () => {
      await quiet();
      const linesBefore = await linesCreated();
      const payment = await createPayment(ana, { planType: '1GB', country: 'BR' });
      expect((await payWithVisa(sys, payment)).status).toBe(200);
      const event = await succeededEvent(payment.paymentIntentId);
      await accepted(event.id);

      const inRow = [];
      for (let i = 0; i < 10; i++) inRow.push(await sendWebhook(sys, event));
      const together = await Promise.all(Array.from({ length: 10 }, () => sendWebhook(sys, event)));
      for (const answer of [...inRow, ...together]) expect(answer).toEqual({ status: 200, body: { received: true, duplicate: true } });

      await stripeEventsApplied(sys);
      await waitFor(async () => (await purchaseRow(payment.paymentIntentId)).status === 'activated', { what: 'the eSIM' });
      expect(await fulfilments(payment.purchaseId)).toBe(1);
      expect(await linesCreated()).toBe(linesBefore + 1);
      const outcomes = (await deliveries(event.id)).map((d) => d.status);
      expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(20);
    });
  });

  it('lists only the caller’s paid purchases, newest first', async () => {
    const brunos = await createPayment(bruno, { planType: '1GB', country: 'CA' });
    await payWithVisa(sys, brunos);
    await waitFor(async () => (await bruno.get('/api/esim-purchases')).json()[0]?.status === 'activated', { what: "Bruno's eSIM" });
    const brunoList = (await bruno.get('/api/esim-purchases')).json();
    expect(brunoList.map((p: { id: string }) => p.id)).toEqual([brunos.purchaseId]);

    const anaList = (await ana.get('/api/esim-purchases')).json() as Array<{ id: string; createdAt: string; status: string }>;
    const { rows } = await db.query(`SELECT id FROM esim_purchases WHERE user_id = $1 AND status NOT IN ('pending', 'payment_failed') ORDER BY created_at DESC`, [anaUser.id]);
    expect(anaList.map((p) => p.id)).toEqual(rows.map((r) => r.id));
    expect(anaList.some((p) => p.id === brunos.purchaseId)).toBe(false);
    expect(anaList.length).toBeGreaterThanOrEqual(4);
  });

  it('a payment whose eSIM cannot be issued ends in manual delivery, with the payment kept', async () => {
    await keepGoControl(sys, { mode: 'fail', path: 'POST /line/create' });
    try {
      const payment = await createPayment(ana, { planType: '5GB', country: 'GB' });
      expect((await payWithVisa(sys, payment)).status).toBe(200);
      const res = await confirmPurchase(ana, payment.paymentIntentId);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({
        success: false,
        status: 'manual_delivery_required',
        message: expect.stringContaining(PROVISIONING_UNAVAILABLE_FRAGMENT),
        support_message: expect.stringContaining(payment.purchaseId),
        planType: '5GB',
        amountGB: 5,
        iccid: null,
      });
      expect(await purchaseRow(payment.paymentIntentId)).toMatchObject({ status: 'manual_delivery_required', failure_reason: 'unavailable' });
      expect((await stripe.paymentIntents.retrieve(payment.paymentIntentId)).status).toBe('succeeded');
      const listed = (await ana.get('/api/esim-purchases')).json().find((p: { id: string }) => p.id === payment.purchaseId);
      expect(listed).toMatchObject({ status: 'manual_delivery_required', qrCode: null });
    } finally {
      await keepGoControl(sys, { reset: true });
    }
  });
});
