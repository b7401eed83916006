import Stripe from 'stripe';
import { STRIPE_SANDBOX_WEBHOOK_SECRET } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { SANDBOX_PUBLISHABLE_KEY, SANDBOX_SECRET_KEY } from '../../services/payments/src/stripe/stripe-settings';
import { startSystem, System } from '../support/system';
import { browserConfirm, catchStripeWebhooks, formEncode, portOf, serverStripe } from './purchases-support';


/**
 * The Stripe emulator on its own: the official SDK against the sandboxes app (as the
 * server uses it), the publishable-key calls through the app's origin (as the card form uses
 * them), and the signed webhooks it sends, caught here at STRIPE_WEBHOOK_URL.
 */
describe('Stripe emulator', () => {
  let sys: System;
  let stripe: Stripe;
  let hook: Awaited<ReturnType<typeof catchStripeWebhooks>>;

  beforeAll(async () => {
    hook = await catchStripeWebhooks();
    sys = await startSystem({ services: ['payments'], env: { STRIPE_WEBHOOK_URL: hook.url } });
    stripe = serverStripe(sys);
  });
  afterAll(async () => {
    await sys?.stop();
    await hook?.close();
  });

  const newIntent = (amount = 499, metadata: Record<string, string> = { purchaseId: 'p-1' }) =>
    stripe.paymentIntents.create({ amount, currency: 'usd', automatic_payment_methods: { enabled: true }, metadata });
  const browser = (pi: Stripe.PaymentIntent) => ({ paymentIntentId: pi.id, clientSecret: pi.client_secret! });
  const card = (number: string, extra: Record<string, unknown> = {}) => ({
    payment_method_data: { type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123', ...extra } },
  });
  /** The verified events delivered about one intent, in order. */
  const eventsAbout = (id: string) =>
    hook.deliveries
      .map((d) => Stripe.webhooks.constructEvent(d.payload, d.signature ?? '', STRIPE_SANDBOX_WEBHOOK_SECRET))
      .filter((e) => (e.data.object as { id?: string; payment_intent?: string }).id === id || (e.data.object as { payment_intent?: string }).payment_intent === id);

  describe('PaymentIntents with the secret key (the SDK)', () => {
    it('creates, retrieves and confirms an intent in Stripe’s shape', async () => {
      const pi = await newIntent(699, { userId: 'u-1' });
      expect(pi).toMatchObject({
        object: 'payment_intent',
        amount: 699,
        amount_received: 0,
        currency: 'usd',
        status: 'requires_payment_method',
        livemode: false,
        metadata: { userId: 'u-1' },
        automatic_payment_methods: { enabled: true },
        payment_method_types: ['card'],
      });
      expect(pi.id).toMatch(/^pi_[A-Za-z0-9]{24}$/);
      expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_[A-Za-z0-9]+$`));
      expect(await stripe.paymentIntents.retrieve(pi.id)).toEqual(pi);

      const paid = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
      expect(paid).toMatchObject({ status: 'succeeded', amount_received: 699, latest_charge: expect.stringMatching(/^ch_/), payment_method: expect.stringMatching(/^pm_/) });
      const method = await stripe.paymentMethods.retrieve(paid.payment_method as string);
      expect(method.card).toMatchObject({ brand: 'visa', last4: '4242' });

      const again = stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
      await expect(again).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'payment_intent_unexpected_state' });
    });

    it('replays an idempotent request and refuses the key with other parameters', async () => {
      const key = `order-${Date.now()}`;
      const first = await stripe.paymentIntents.create({ amount: 299, currency: 'usd' }, { idempotencyKey: key });
      const second = await stripe.paymentIntents.create({ amount: 299, currency: 'usd' }, { idempotencyKey: key });
      expect(second.id).toBe(first.id);
      expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');

      const other = stripe.paymentIntents.create({ amount: 1099, currency: 'usd' }, { idempotencyKey: key });
      await expect(other).rejects.toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400, message: expect.stringContaining('same parameters') });
    });

    it('answers Stripe’s errors: unknown ids, missing or bad parameters, a wrong key', async () => {
      await expect(stripe.paymentIntents.retrieve('pi_nope')).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 404,
        code: 'resource_missing',
        message: "No such payment_intent: 'pi_nope'",
      });
      await expect(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams)).rejects.toMatchObject({
        statusCode: 400,
        code: 'parameter_missing',
        param: 'amount',
      });
      await expect(stripe.paymentIntents.create({ amount: 10, currency: 'usd' })).rejects.toMatchObject({ code: 'amount_too_small' });
      await expect(stripe.paymentIntents.create({ amount: 100, currency: 'usd', colour: 'red' } as Stripe.PaymentIntentCreateParams)).rejects.toMatchObject({
        code: 'parameter_unknown',
        param: 'colour',
      });
      const wrongKey = new Stripe('sk_test_wrong_key_0000000000', { host: '127.0.0.1', port: portOf(sys.sandboxes.app), protocol: 'http', maxNetworkRetries: 0 });
      await expect(wrongKey.paymentIntents.create({ amount: 100, currency: 'usd' })).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });

      const raw = await fetch(`${sys.sandboxes.url}/v1/charges`, { headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}` } });
      expect(raw.status).toBe(404);
      expect(await raw.json()).toEqual({ error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL (GET: /v1/charges)') } });
    });
  });

  describe('the browser’s publishable-key calls, through the app’s origin', () => {
    it('retrieves an intent by its client secret, without its metadata', async () => {
      const pi = await newIntent();
      const url = (secret: string, key = SANDBOX_PUBLISHABLE_KEY) =>
        `${sys.url}/sandbox/stripe/v1/payment_intents/${pi.id}?${formEncode({ key, client_secret: secret })}`;
      const ok = await fetch(url(pi.client_secret!));
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ id: pi.id, amount: 499, status: 'requires_payment_method', client_secret: pi.client_secret });
      expect(body.metadata).toBeUndefined();

      const wrong = await fetch(url(`${pi.id}_secret_guess`));
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { error: unknown }).error).toMatchObject({ type: 'invalid_request_error', code: 'payment_intent_invalid_parameter', param: 'client_secret' });
      // The secret key never works on the public path; the publishable key cannot create intents.
      expect((await fetch(url(pi.client_secret!, SANDBOX_SECRET_KEY))).status).toBe(401);
      const create = await fetch(`${sys.url}/sandbox/stripe/v1/payment_intents`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: formEncode({ key: SANDBOX_PUBLISHABLE_KEY, amount: 100, currency: 'usd' }),
      });
      expect(create.status).toBe(401);
      expect((await fetch(`${sys.url}/sandbox/stripe/v1/payment_intents/${pi.id}`)).status).toBe(401);
    });

    it.each([
      ['4242 4242 4242 4242', 200, 'succeeded', undefined],
      ['5555555555554444', 200, 'succeeded', undefined],
      ['4000000000000002', 402, 'card_declined', 'generic_decline'],
      ['4000000000009995', 402, 'card_declined', 'insufficient_funds'],
      ['4242424242424241', 402, 'incorrect_number', undefined],
    ])('card %s → HTTP %i %s %s', async (number, status, code, declineCode) => {
      // code is the intent's status on success, the error code otherwise.
      const pi = await newIntent();
      const answer = await browserConfirm(sys, browser(pi), card(number));
      expect(answer.status).toBe(status);
      if (status === 200) {
        expect(answer.body).toMatchObject({ id: pi.id, status: code });
      } else {
        expect(answer.body.error).toMatchObject({ type: 'card_error', code, message: expect.any(String) });
        expect(answer.body.error.decline_code).toBe(declineCode);
        expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_payment_method');
      }
    });

    it('insufficient funds says so, and an expired card is refused before any charge', async () => {
      const pi = await newIntent();
      const poor = await browserConfirm(sys, browser(pi), card('4000000000009995'));
      expect(poor.body.error.message).toBe('Your card has insufficient funds.');
      expect((await stripe.paymentIntents.retrieve(pi.id)).last_payment_error).toMatchObject({ decline_code: 'insufficient_funds' });
      const expired = await browserConfirm(sys, browser(pi), card('4242424242424242', { exp_year: 2020 }));
      expect(expired).toMatchObject({ status: 402, body: { error: { type: 'card_error', code: 'invalid_expiry_year' } } });
    });

    it('confirms with Stripe’s test PaymentMethods', async () => {
      const good = await newIntent();
      expect((await browserConfirm(sys, browser(good), { payment_method: 'pm_card_visa' })).body.status).toBe('succeeded');
      const bad = await newIntent();
      const declined = await browserConfirm(sys, browser(bad), { payment_method: 'pm_card_chargeDeclined' });
      expect(declined).toMatchObject({ status: 402, body: { error: { code: 'card_declined', decline_code: 'generic_decline' } } });
      const unknown = await browserConfirm(sys, browser(bad), { payment_method: 'pm_nothing' });
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'resource_missing', param: 'payment_method' } } });
    });
  });

  it('sends signed payment_intent.succeeded and payment_failed events to the webhook address', async () => {
    const pi = await newIntent(1099);
    await browserConfirm(sys, browser(pi), card('4000000000000002'));
    await browserConfirm(sys, browser(pi), { payment_method: 'pm_card_visa' });
    const events = await waitFor(() => {
      const found = eventsAbout(pi.id);
      return found.length >= 2 ? found : null;
    }, { what: 'two webhook deliveries' });
    expect(events.map((e) => e.type)).toEqual(['payment_intent.payment_failed', 'payment_intent.succeeded']);
    expect(events[1].data.object).toMatchObject({ id: pi.id, amount: 1099, status: 'succeeded', metadata: { purchaseId: 'p-1' } });
    expect(events[0].data.object).toMatchObject({ last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' } });
    // A header that does not verify with the endpoint's secret is what our endpoint refuses.
    const delivery = hook.deliveries.find((d) => d.payload.includes(events[1].id))!;
    expect(() => Stripe.webhooks.constructEvent(delivery.payload, delivery.signature!, 'whsec_other')).toThrow(/signature/i);
    expect((await stripe.events.retrieve(events[1].id)).id).toBe(events[1].id);
  });

  describe('refunds', () => {
    it('refunds a paid intent once, in part or in full, and nothing more', async () => {
      const pi = await newIntent(699);
      await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
      const part = await stripe.refunds.create({ payment_intent: pi.id, amount: 200, reason: 'requested_by_customer' });
      expect(part).toMatchObject({ object: 'refund', amount: 200, status: 'succeeded', payment_intent: pi.id, currency: 'usd', charge: expect.stringMatching(/^ch_/) });
      await expect(stripe.refunds.create({ payment_intent: pi.id, amount: 500 })).rejects.toMatchObject({ statusCode: 400, code: 'amount_too_large' });
      const rest = await stripe.refunds.create({ payment_intent: pi.id });
      expect(rest.amount).toBe(499);
      await expect(stripe.refunds.create({ payment_intent: pi.id })).rejects.toMatchObject({ code: 'charge_already_refunded' });
      expect(await stripe.refunds.retrieve(part.id)).toEqual(part);
    });

    it('refuses to refund an intent that was never paid', async () => {
      const pi = await newIntent();
      await expect(stripe.refunds.create({ payment_intent: pi.id })).rejects.toMatchObject({ statusCode: 400, code: 'charge_not_refundable' });
    });
  });
});
