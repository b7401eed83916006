import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { EventEnvelope, EventPayload, STRIPE_SANDBOX_WEBHOOK_SECRET, StripeEventAccepted, StripeEventRefused } from '@esim/contracts';
import { startWebhooksUnderTest, WebhooksUnderTest } from '../testing/webhooks-harness';

/**
 * Stripe's webhook on the ingestion service's own port: the signature checked on the bytes as
 * received whatever their content type, one accepted record and one StripeEventAccepted per event
 * id (the rest duplicates), refusals recorded with the SDK's reason, Stripe's own answers, and
 * payments' refusals of accepted events written back onto their deliveries.
 */
describe('POST /webhooks/stripe on the ingestion service', () => {
  let wh: WebhooksUnderTest;

  beforeAll(async () => {
    wh = await startWebhooksUnderTest({ BODY_LIMIT: '8kb' });
  });
  afterAll(() => wh?.stop());

  const intentEvent = (type = 'payment_intent.succeeded') => ({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `pi_${randomUUID().replaceAll('-', '')}`,
        object: 'payment_intent',
        status: type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method',
        amount: 499,
        amount_received: type === 'payment_intent.succeeded' ? 499 : 0,
        currency: 'usd',
        metadata: { purchaseId: randomUUID(), userId: randomUUID(), planType: '3GB', country: 'BR' },
        last_payment_error: type === 'payment_intent.succeeded' ? null : { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      },
    },
  });
  const post = async (payload: string, headers: Record<string, string>) => {
    const res = await fetch(`${wh.origin}/webhooks/stripe`, { method: 'POST', headers, body: payload });
    return { status: res.status, body: await res.text() };
  };
  const signed = (payload: string, secret = STRIPE_SANDBOX_WEBHOOK_SECRET) => ({
    'content-type': 'application/json; charset=utf-8',
    'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  });
  const published = async (eventId: string) =>
    (
      (await wh.db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'eventId' = $2`, [
        StripeEventAccepted.routingKey,
        eventId,
      ])) as Array<{ envelope: EventEnvelope<EventPayload<typeof StripeEventAccepted>> }>
    ).map((r) => r.envelope.payload);
  const records = (eventId: string) =>
    wh.db.query(`SELECT status, action, user_id FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = $1 ORDER BY created_at, status`, [eventId]);

  it('accepts an event once, publishes what payments needs, and answers a replay as a duplicate', async () => {
    const event = intentEvent('payment_intent.payment_failed');
    // Whitespace and key order as Stripe sends them: the signature covers these exact bytes.
    const payload = JSON.stringify(event, null, 2);
    const answers = [await post(payload, signed(payload))];
    answers.push(...(await Promise.all(Array.from({ length: 5 }, () => post(payload, signed(payload))))));
    expect(answers.map((a) => [a.status, JSON.parse(a.body)])).toEqual([
      [200, { received: true }],
      ...Array.from({ length: 5 }, () => [200, { received: true, duplicate: true }]),
    ]);

    const pi = event.data.object;
    expect(await published(event.id)).toEqual([
      {
        deliveryId: expect.any(String),
        eventId: event.id,
        type: 'payment_intent.payment_failed',
        paymentIntent: {
          id: pi.id,
          status: 'requires_payment_method',
          amount: 499,
          amountReceived: 0,
          currency: 'usd',
          metadata: pi.metadata,
          lastPaymentError: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
        },
        acceptedAt: expect.any(String),
      },
    ]);
    const rows = await records(event.id);
    expect(rows[0]).toEqual({ status: 'accepted', action: 'event', user_id: pi.metadata.userId });
    expect(rows.slice(1).map((r: { status: string }) => r.status)).toEqual(Array(5).fill('duplicate'));
  });

  it('verifies the raw bytes whatever the content type says', async () => {
    const event = intentEvent();
    const payload = JSON.stringify(event);
    const answer = await post(payload, { ...signed(payload), 'content-type': 'application/x-www-form-urlencoded' });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { received: true }]);
    expect(await published(event.id)).toHaveLength(1);
  });

  it('refuses a wrong secret, a tampered body and a missing header with 400, records why, and publishes nothing', async () => {
    const event = intentEvent();
    const payload = JSON.stringify(event);
    const before = Number((await wh.db.query(`SELECT count(*) FROM webhook_transactions WHERE provider = 'stripe' AND status = 'rejected_signature'`))[0].count);
    const answers = [
      await post(payload, signed(payload, 'whsec_guessed')),
      await post(payload.replace('"amount":499', '"amount":1'), signed(payload)),
      await post(payload, { 'content-type': 'application/json' }),
    ];
    for (const a of answers) expect([a.status, JSON.parse(a.body)]).toEqual([400, { error: { message: 'Webhook signature verification failed.' } }]);
    expect(await published(event.id)).toEqual([]);
    const refused = await wh.db.query(
      `SELECT transaction_id, action, error FROM webhook_transactions WHERE provider = 'stripe' AND status = 'rejected_signature' ORDER BY created_at`,
    );
    expect(refused.length - before).toBe(3);
    expect(refused.slice(-3).map((r: { transaction_id: string | null; action: string | null }) => [r.transaction_id, r.action])).toEqual(Array(3).fill([null, null]));
    expect(refused.at(-1).error).toMatch(/stripe-signature/i);
  });

  it('keeps a bounded record of a refused delivery, and records none beyond the per-address limit', async () => {
    const from = '203.0.113.88';
    const payload = JSON.stringify(intentEvent());
    const headers = { ...signed(payload, 'whsec_wrong'), 'x-forwarded-for': from, 'x-padding': 'p'.repeat(11 * 1024) };
    const answers = await Promise.all(Array.from({ length: 70 }, () => post(payload, headers)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([400]));
    const [stored] = await wh.db.query(
      `SELECT count(*)::int AS rows, max(pg_column_size(w.*)) AS largest, bool_and((raw_payload->>'truncated')::boolean) AS truncated
         FROM webhook_transactions w WHERE provider = 'stripe' AND source_ip = $1`,
      [from],
    );
    // REFUSED_DELIVERIES_PER_MINUTE's default: 60 an address a minute.
    expect(stored).toEqual({ rows: 60, largest: expect.any(Number), truncated: true });
    expect(stored.largest).toBeLessThan(8 * 1024);
  });

  it("records payments' refusal of an accepted event on its delivery, with the reason, once however often it arrives", async () => {
    const event = intentEvent();
    const payload = JSON.stringify(event);
    expect((await post(payload, signed(payload))).status).toBe(200);
    const [{ deliveryId }] = await published(event.id);
    const refusal = {
      deliveryId,
      eventId: event.id,
      outcome: 'rejected_unknown_payment' as const,
      reason: `no purchase for ${event.data.object.id}`,
      refusedAt: '2030-01-02T03:04:05.000Z',
    };
    const first = await wh.publish(StripeEventRefused, refusal);
    // Redelivered (the inbox skips it), and republished under a new id (the same write again): one row, one outcome.
    await wh.publish(StripeEventRefused, refusal, { id: first.id });
    const copy = await wh.publish(StripeEventRefused, refusal);
    await wh.applied(first);
    await wh.applied(copy);

    const rows = await wh.db.query(
      `SELECT status, action, error, processed_at FROM webhook_transactions WHERE provider = 'stripe' AND transaction_id = $1 ORDER BY created_at`,
      [event.id],
    );
    expect(rows).toEqual([
      { status: 'rejected_unknown_payment', action: 'event', error: refusal.reason, processed_at: new Date(refusal.refusedAt) },
    ]);
  });

  it('refuses a body larger than BODY_LIMIT before reading it', async () => {
    const payload = JSON.stringify({ ...intentEvent(), padding: 'x'.repeat(10_000) });
    const answer = await post(payload, signed(payload));
    expect(answer).toEqual({ status: 413, body: 'payload_too_large' });
  });
});
