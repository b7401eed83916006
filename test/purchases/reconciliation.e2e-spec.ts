import type { INestApplication } from '@nestjs/common';
import type { Client } from 'pg';
import Stripe from 'stripe';
import { PurchaseEsimIssued, STRIPE_SANDBOX_WEBHOOK_SECRET, type CreateEsimPaymentResponse } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { startPayments } from '../../services/payments/src/app';
import { PurchaseResolutions } from '../../services/payments/src/operator-queue/purchase-resolutions';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { catchStripeWebhooks, confirmPurchase, createPayment, paymentsDb, payWithVisa, stripeEventsApplied, type StripeDelivery } from './purchases-support';

/** Quick reconciliation for the test: a purchase unpaid for a second is checked with Stripe. */
const RECONCILE = { PAYMENTS_RECONCILE_AFTER_MS: '1000', PAYMENTS_RECONCILE_INTERVAL_MS: '100' };

/**
 * A paid purchase whose webhook never arrives and whose buyer never comes back to /success: the
 * Stripe emulator's webhooks go to a catcher (the sandboxes' STRIPE_WEBHOOK_URL), not to us, and no confirmation
 * is called. Payments' reconciliation asks Stripe and delivers the eSIM once; the webhook arriving
 * late, a confirmation after it, and a second replica reconciling at the same time change nothing.
 */
describe('reconciling purchases whose webhook was lost', () => {
  let sys: System;
  let hook: Awaited<ReturnType<typeof catchStripeWebhooks>>;
  let db: Client;
  let buyer: HttpClient;
  const replicas: INestApplication[] = [];

  beforeAll(async () => {
    hook = await catchStripeWebhooks();
    sys = await startSystem({ services: ['identity', 'esim', 'payments', 'notifications', 'webhooks'], env: { STRIPE_WEBHOOK_URL: hook.url, ...RECONCILE } });
    db = await paymentsDb(sys);
    buyer = sys.client();
    await signUp(buyer, sys.mail, { name: 'Lost Hook' });
  });
  afterAll(async () => {
    for (const r of replicas) await r.close();
    await db?.end();
    await sys?.stop();
    await hook?.close();
  });

  const statusOf = async (purchaseId: string): Promise<string> => (await db.query('SELECT status FROM esim_purchases WHERE id = $1', [purchaseId])).rows[0].status;
  /** How often payments ordered the purchase's eSIM (PaymentSucceeded), and how often esim issued one. */
  const orders = async (purchaseId: string): Promise<number> =>
    (await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE routing_key = 'payments.payment-succeeded.v1' AND envelope->'payload'->>'purchaseId' = $1`, [purchaseId])).rows[0].n;
  const issued = async (purchaseId: string): Promise<number> =>
    (
      await db.query(`SELECT count(*)::int AS n FROM "${sys.ns.schema('esim')}".outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'purchaseId' = $2`, [
        PurchaseEsimIssued.routingKey,
        purchaseId,
      ])
    ).rows[0].n;
  const event = (d: StripeDelivery) => Stripe.webhooks.constructEvent(d.payload, d.signature ?? '', STRIPE_SANDBOX_WEBHOOK_SECRET);
  /** The emulator's payment_intent.succeeded for this intent, as it reached the catcher instead of us. */
  const lostWebhook = (paymentIntentId: string) =>
    waitFor(() => hook.deliveries.find((d) => event(d).type === 'payment_intent.succeeded' && (event(d).data.object as Stripe.PaymentIntent).id === paymentIntentId) ?? null, {
      what: `the lost webhook of ${paymentIntentId}`,
    });
  const activated = (purchaseId: string) => waitFor(async () => (await statusOf(purchaseId)) === 'activated', { what: `the eSIM of ${purchaseId}`, timeoutMs: 30_000 });
  async function paidWithoutWord(planType = '1GB', country = 'US'): Promise<CreateEsimPaymentResponse> {
    const payment = await createPayment(buyer, { planType, country });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    return payment;
  }

  it('delivers the eSIM of a paid purchase nobody told us about, once, and the late webhook and a confirmation change nothing', async () => {
    const payment = await paidWithoutWord();
    const lost = await lostWebhook(payment.paymentIntentId);

    await activated(payment.purchaseId);
    expect(await orders(payment.purchaseId)).toBe(1);
    const mine = (await buyer.get('/api/esim-purchases')).json() as Array<{ id: string; status: string; iccid: string | null }>;
    expect(mine.find((p) => p.id === payment.purchaseId)).toMatchObject({ status: 'activated', iccid: expect.stringMatching(/^89/) });

    // Stripe's retry finally gets through, then the buyer comes back to /success.
    const late = await fetch(`${sys.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': lost.signature ?? '' },
      body: lost.payload,
    });
    expect({ status: late.status, body: await late.json() }).toEqual({ status: 200, body: { received: true } });
    await stripeEventsApplied(sys);
    expect((await confirmPurchase(buyer, payment.paymentIntentId)).json()).toMatchObject({ status: 'activated' });

    expect(await statusOf(payment.purchaseId)).toBe('activated');
    expect(await orders(payment.purchaseId)).toBe(1);
    await waitFor(async () => (await issued(payment.purchaseId)) >= 1, { what: 'esim to record the issued eSIM' });
    expect(await issued(payment.purchaseId)).toBe(1);
  });

  it('leaves an unpaid purchase pending and checks it again later', async () => {
    const payment = await createPayment(buyer, { planType: '1GB', country: 'DE' });
    await waitFor(async () => (await db.query('SELECT reconcile_checks FROM esim_purchases WHERE id = $1', [payment.purchaseId])).rows[0].reconcile_checks >= 1, {
      what: 'the unpaid purchase to be checked with Stripe',
    });
    expect(await statusOf(payment.purchaseId)).toBe('pending');
    expect(await orders(payment.purchaseId)).toBe(0);
  });

  it('puts a purchase Stripe reports paid but that does not match it in the operator queue, ordering nothing', async () => {
    const payment = await createPayment(buyer, { planType: '3GB', country: 'MX' });
    // The row no longer says what Stripe charged (as if the catalogue price had been tampered with).
    await db.query('UPDATE esim_purchases SET price_usd = price_usd + 100 WHERE id = $1', [payment.purchaseId]);
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    await waitFor(async () => (await statusOf(payment.purchaseId)) === 'manual_delivery_required', { what: 'the mismatched purchase to wait for an operator' });
    expect(await orders(payment.purchaseId)).toBe(0);
    const queue = await sys.apps.payments!.get(PurchaseResolutions).list(100);
    expect(queue.find((i) => i.id === payment.purchaseId)).toMatchObject({
      kind: 'purchase',
      reason: 'manual_delivery_required',
      failure: { reason: 'payment_mismatch', message: expect.stringContaining(payment.paymentIntentId) },
      actions: ['retry', 'deliver', 'refund'],
    });
  });

  it('fulfils each lost purchase once with two replicas reconciling at the same time', async () => {
    replicas.push(await startPayments(sys.ns.env('payments', { SANDBOXES_URL: sys.sandboxes.url, ...RECONCILE })));
    const payments: CreateEsimPaymentResponse[] = [];
    for (const country of ['US', 'DE', 'JP', 'BR', 'FR', 'GB']) payments.push(await paidWithoutWord('1GB', country));
    for (const p of payments) await activated(p.purchaseId);
    expect(await Promise.all(payments.map((p) => orders(p.purchaseId)))).toEqual(payments.map(() => 1));
  });
});
