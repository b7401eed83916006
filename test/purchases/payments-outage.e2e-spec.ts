import type { Client } from 'pg';
import Stripe from 'stripe';
import { STRIPE_SANDBOX_WEBHOOK_SECRET, type CreateEsimPaymentResponse } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { signUp } from '../support/accounts';
import { startSystem, System } from '../support/system';
import { catchStripeWebhooks, createPayment, paymentsDb, payWithVisa, stripeEventsApplied, webhooksDb, type StripeDelivery } from './purchases-support';

/**
 * Payments goes down while Stripe delivers its webhooks: the ingestion service verifies, records
 * and answers each delivery on its own (Stripe gets its 200), keeps the accepted events in its
 * outbox and the broker, and once payments is back each purchase is fulfilled exactly once. The
 * deliveries are the Stripe emulator's own signed events, caught at STRIPE_WEBHOOK_URL before
 * payments stops and sent to the public URL while it is away. No timing is asserted.
 */
describe('Stripe webhooks while payments is down', () => {
  let sys: System;
  let hook: Awaited<ReturnType<typeof catchStripeWebhooks>>;
  let db: Client;
  let wh: Client;

  beforeAll(async () => {
    hook = await catchStripeWebhooks();
    sys = await startSystem({ services: ['identity', 'esim', 'payments', 'notifications', 'webhooks'], env: { STRIPE_WEBHOOK_URL: hook.url } });
    db = await paymentsDb(sys);
    wh = await webhooksDb(sys);
  });
  afterAll(async () => {
    await db?.end();
    await wh?.end();
    await sys?.stop();
    await hook?.close();
  });

  /** Posts a caught delivery to the public endpoint byte for byte, as Stripe (re)sends it. */
  const deliver = async (d: StripeDelivery) => {
    const res = await fetch(`${sys.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': d.signature ?? '' },
      body: d.payload,
    });
    return { status: res.status, body: await res.json() };
  };
  const fulfilments = async (purchaseId: string) =>
    (
      await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE routing_key = 'payments.payment-succeeded.v1' AND envelope->'payload'->>'purchaseId' = $1`, [
        purchaseId,
      ])
    ).rows[0].n;

  it('answers Stripe while payments is away, then fulfils each paid purchase exactly once', async () => {
    const buyer = sys.client();
    await signUp(buyer, sys.mail, { name: 'Outage' });
    const payments: CreateEsimPaymentResponse[] = [];
    for (const country of ['US', 'DE', 'JP']) {
      const payment = await createPayment(buyer, { planType: '1GB', country });
      expect((await payWithVisa(sys, payment)).status).toBe(200);
      payments.push(payment);
    }
    const succeeded = (d: StripeDelivery) => Stripe.webhooks.constructEvent(d.payload, d.signature ?? '', STRIPE_SANDBOX_WEBHOOK_SECRET);
    const deliveries = await waitFor(
      () => {
        const found = payments.map((p) => hook.deliveries.find((d) => succeeded(d).type === 'payment_intent.succeeded' && (succeeded(d).data.object as Stripe.PaymentIntent).id === p.paymentIntentId));
        return found.every(Boolean) ? (found as StripeDelivery[]) : null;
      },
      { what: 'the three payment_intent.succeeded events' },
    );

    await sys.apps.payments!.close();
    sys.apps.payments = undefined;
    // Each event once, then Stripe's retries: three in a row and three at once.
    const first = [];
    for (const d of deliveries) first.push(await deliver(d));
    const inRow = [];
    for (const d of deliveries) inRow.push(await deliver(d));
    const together = await Promise.all(deliveries.map((d) => deliver(d)));
    expect(first).toEqual(deliveries.map(() => ({ status: 200, body: { received: true } })));
    expect([...inRow, ...together]).toEqual([...inRow, ...together].map(() => ({ status: 200, body: { received: true, duplicate: true } })));

    // Recorded and waiting (the ingestion service's outbox, then the broker); nothing applied yet.
    const ids = deliveries.map((d) => succeeded(d).id);
    const { rows } = await wh.query(
      `SELECT status, count(*)::int AS n FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = ANY($1::text[]) GROUP BY status ORDER BY status`,
      [ids],
    );
    expect(rows).toEqual([
      { status: 'accepted', n: 3 },
      { status: 'duplicate', n: 6 },
    ]);
    for (const p of payments) expect((await db.query('SELECT status FROM esim_purchases WHERE id = $1', [p.purchaseId])).rows[0].status).toBe('pending');

    await sys.restart('payments');
    await stripeEventsApplied(sys, 60_000);
    for (const p of payments) {
      await waitFor(async () => (await db.query('SELECT status FROM esim_purchases WHERE id = $1', [p.purchaseId])).rows[0].status === 'activated', {
        what: `the eSIM of ${p.purchaseId}`,
        timeoutMs: 30_000,
      });
      expect(await fulfilments(p.purchaseId)).toBe(1);
    }
  });
});
