import { Client } from 'pg';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { confirmPurchase, createPayment, keepGoControl, payWithVisa } from '../purchases/purchases-support';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { TestPushService } from '../support/push-service';
import { waitForQuiet } from '../support/quiet';
import { startSystem, System } from '../support/system';

const LOW = /running low on data/;

/**
 * Web Push (docs/wallet.md, "Web Push"): a browser's subscription saved through the gateway, a
 * low-data alert pushed with the web-push library to a local push service that checks the VAPID
 * signature against the key the site announced, an expired subscription (410) forgotten, and the
 * switches obeyed: pushNotifications off means no push (the email still goes), emailNotifications
 * off means no email (the push still goes).
 */
describe('web push: low-data alerts reach the browser', () => {
  let sys: System;
  let push: TestPushService;
  let notificationsDb: Client;
  let ana: { client: HttpClient; user: SignedUpUser };
  let bruno: { client: HttpClient; user: SignedUpUser };

  async function buyOneGB(client: HttpClient): Promise<string> {
    const payment = await createPayment(client, { planType: '1GB', country: 'BR' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    return waitFor(
      async () => {
        const body = (await confirmPurchase(client, payment.paymentIntentId)).json();
        return body.status === 'activated' ? (body.iccid as string) : undefined;
      },
      { what: 'the eSIM bought', timeoutMs: 20_000 },
    );
  }

  const endpoints = async (userId: string) =>
    (await notificationsDb.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint', [userId])).rows.map((r) => r.endpoint);

  beforeAll(async () => {
    push = await new TestPushService().start();
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'payments', 'notifications'],
      env: {
        PURCHASE_CONFIRM_WAIT_MS: '5000',
        ESIM_USAGE_CHECK_SECONDS: '1',
        ESIM_LINE_USAGE_REFRESH_SECONDS: '0',
        WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1',
        WEB_PUSH_CA_FILE: push.caFile,
        VAPID_SUBJECT: 'mailto:ops@example.test',
      },
    });
    notificationsDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('notifications')}` });
    await notificationsDb.connect();
    ana = { client: sys.client(), user: undefined as unknown as SignedUpUser };
    bruno = { client: sys.client(), user: undefined as unknown as SignedUpUser };
    ana.user = await signUp(ana.client, sys.mail, { name: 'Ana' });
    bruno.user = await signUp(bruno.client, sys.mail, { name: 'Bruno' });
    expect((await ana.client.patch('/api/user/settings', { locale: 'en', emailNotifications: false })).status).toBe(200);
    expect((await bruno.client.patch('/api/user/settings', { locale: 'en', pushNotifications: false })).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await notificationsDb?.end();
    await sys?.stop();
    await push?.stop();
  });

  it('announces the VAPID public key and saves a browser subscription for the signed-in user only', async () => {
    const key = await ana.client.get('/api/push/public-key');
    expect(key.status).toBe(200);
    push.vapidPublicKey = key.json().publicKey;
    expect(push.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await sys.client().get('/api/push/public-key')).status).toBe(401);

    expect((await ana.client.post('/api/push/subscriptions', push.subscription('ana-phone'))).status).toBe(200);
    expect((await ana.client.post('/api/push/subscriptions', push.subscription('ana-old-laptop', { gone: true }))).status).toBe(200);
    expect((await bruno.client.post('/api/push/subscriptions', push.subscription('bruno-phone'))).status).toBe(200);
    expect(await endpoints(ana.user.id)).toEqual([`${push.origin}/push/ana-old-laptop`, `${push.origin}/push/ana-phone`]);
  });

  it('refuses a push service it does not send to, and malformed keys, saving nothing', async () => {
    const elsewhere = { ...push.subscription('x'), endpoint: 'https://attacker.example/push/x' };
    const refused = await ana.client.post('/api/push/subscriptions', elsewhere);
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ reason: 'push_endpoint_refused' });
    const plainHttp = { ...push.subscription('y'), endpoint: push.subscription('y').endpoint.replace('https:', 'http:') };
    expect((await ana.client.post('/api/push/subscriptions', plainHttp)).status).toBe(400);
    const badKeys = { ...push.subscription('z'), keys: { p256dh: 'short', auth: 'short' } };
    expect((await ana.client.post('/api/push/subscriptions', badKeys)).status).toBe(400);
    expect(await endpoints(ana.user.id)).toHaveLength(2);
  });

  it('pushes a low-data alert signed with the VAPID key, forgets the expired subscription, and follows each switch', async () => {
    const anaLine = await buyOneGB(ana.client);
    const brunoLine = await buyOneGB(bruno.client);
    await keepGoControl(sys, { consume: { iccid: anaLine, mb: 850 } });
    await keepGoControl(sys, { consume: { iccid: brunoLine, mb: 850 } });

    const [received] = await waitFor(() => (push.pushesTo('ana-phone').length > 0 ? push.pushesTo('ana-phone') : undefined), {
      what: "the push on Ana's phone",
      timeoutMs: 30_000,
    });
    expect(received.claims).toMatchObject({ aud: push.origin, sub: 'mailto:ops@example.test' });
    expect(received.message).toEqual({
      title: 'Low data on your eSIM',
      body: `174 MB left on the eSIM ending in ${anaLine.slice(-4)} (83% used).`,
      why: 'You get this because data alerts are on; change it in your profile.',
      url: '/esims',
      tag: `data-low:${anaLine}`,
    });
    await waitFor(async () => (await endpoints(ana.user.id)).length === 1, { what: 'the expired subscription forgotten', timeoutMs: 10_000 });
    expect(await endpoints(ana.user.id)).toEqual([`${push.origin}/push/ana-phone`]);

    // Bruno turned push off: his email comes, no push.
    await sys.mail.waitForMail(bruno.user.email, { subject: LOW, timeoutMs: 30_000 });
    await waitForQuiet(sys, 'the alerts handled');
    expect(push.pushesTo('bruno-phone')).toHaveLength(0);
    // Ana turned email off: her push came, no email.
    expect(sys.mail.mailsTo(ana.user.email).filter((m) => LOW.test(m.subject))).toHaveLength(0);
    expect(push.pushesTo('ana-phone')).toHaveLength(1);
    expect(push.refused).toEqual([]);
  });

  it('forgets a subscription when the browser unsubscribes', async () => {
    const res = await ana.client.delete('/api/push/subscriptions', { endpoint: `${push.origin}/push/ana-phone` });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ removed: true });
    expect(await endpoints(ana.user.id)).toEqual([]);
    // Someone else's endpoint is not theirs to remove.
    expect((await ana.client.delete('/api/push/subscriptions', { endpoint: `${push.origin}/push/bruno-phone` })).json()).toEqual({ removed: false });
    expect(await endpoints(bruno.user.id)).toHaveLength(1);
  });
});
