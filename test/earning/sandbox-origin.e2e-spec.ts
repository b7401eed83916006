import { DataSource } from 'typeorm';
import { SANDBOX_PUBLISHABLE_KEY } from '../../services/payments/src/stripe/stripe-settings';
import type { SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { formEncode } from '../purchases/purchases-support';
import { signUpEarner } from './earning-support';

/**
 * Audit finding 8: the sandbox wall's Complete button accepted a form posted from another site.
 * The sandbox controls take forms by design, so their defence is the origin: a foreign Origin, or
 * Sec-Fetch-Site naming another site (even a same-site one: another port of the same host gets
 * the SameSite=Lax cookie), is refused 403 csrf_origin and nothing happens; our own origin works.
 */
describe('origin check on the sandbox controls', () => {
  let sys: System;
  let client: HttpClient;
  let user: SignedUpUser;
  let uid: string;

  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    client.request('POST', path, undefined, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const transactions = async () => Number((await sys.apps.webhooks!.get(DataSource).query('SELECT count(*) FROM webhook_transactions WHERE user_id = $1', [user.id]))[0].count);

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks', 'payments'] });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, {}, sys);
    const walls = (await client.get('/api/offerwalls')).json().walls as Array<{ id: string; uid: string }>;
    uid = walls.find((w) => w.id === 'cpx')!.uid;
  });
  afterAll(() => sys?.stop());

  it('refuses a cross-site or same-site form POST to the wall\'s Complete and Reverse, and sends no postback', async () => {
    const sameSiteOtherPort = new URL(sys.url);
    sameSiteOtherPort.port = String(Number(sameSiteOtherPort.port) + 1);
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: sameSiteOtherPort.origin, 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      for (const action of ['complete', 'reverse']) {
        const res = await form(`/sandbox/offerwalls/cpx/${action}`, { uid, offerId: 'sbx-survey', transactionId: 'x' }, headers);
        expect({ headers, action, status: res.status, body: res.json() }).toEqual({
          headers,
          action,
          status: 403,
          body: { code: 'forbidden', reason: 'csrf_origin', message: 'Cross-origin requests are not allowed.' },
        });
      }
    }
    expect(await transactions()).toBe(0);

    // The wall itself (our origin, as the framed page's form sends it) still completes the offer.
    const own = await form('/sandbox/offerwalls/cpx/complete', { uid, offerId: 'sbx-survey' }, { origin: new URL(sys.url).origin, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toContain('notice=completed');
    expect(await transactions()).toBe(1);
  });

  it("refuses a cross-site POST to the Stripe emulator's card form relay", async () => {
    const payment = (await client.post('/api/create-esim-payment', { planType: '1GB', country: 'US' })).json();
    const confirm = (headers: Record<string, string>) =>
      fetch(`${sys.url}/sandbox/stripe/v1/payment_intents/${payment.paymentIntentId}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: formEncode({ key: SANDBOX_PUBLISHABLE_KEY, client_secret: payment.clientSecret, payment_method: 'pm_card_visa' }),
      });
    const refused = await confirm({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ reason: 'csrf_origin' });
    const paymentsDb = sys.apps.payments!.get(DataSource);
    expect((await paymentsDb.query('SELECT status FROM esim_purchases WHERE payment_intent_id = $1', [payment.paymentIntentId]))[0].status).toBe('pending');

    const own = await confirm({ origin: new URL(sys.url).origin, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
  });
});
