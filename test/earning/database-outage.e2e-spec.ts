import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL, TcpProxy } from '@esim/testing';
import { startSystem, System } from '../support/system';
import { FAST_PROVISIONING, newEsim, redeem, signUpRedeemer, topUpTo, type Redeemer, expectLedgerSound } from '../redemption/redemption-support';
import { sendWebhook } from '../purchases/purchases-support';
import { callPostback, earningSettled, postbackFor, signedPostbackUrl } from './earning-support';

/**
 * While the database cannot be reached, a postback and a redemption are answered 503 with the
 * declared reason `database_unavailable` (the provider retries, the user is told to try again),
 * never 500, and nothing is written; once it is back the same calls succeed, credited once.
 * Every service reaches Postgres through one proxy the test holds closed.
 */
describe('answers during a database outage', () => {
  let sys: System;
  let db: TcpProxy;
  let user: Redeemer;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL);
    db = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    target.hostname = '127.0.0.1';
    target.port = String(db.port);
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'],
      env: { ...FAST_PROVISIONING, DATABASE_URL: target.toString() },
      gatewayEnv: { REDEEM_WAIT_MS: '30000' },
    });
    user = await signUpRedeemer(sys);
    await topUpTo(sys, user, 1000);
  });
  afterAll(async () => {
    db?.accept();
    await sys?.stop();
    await db?.stop();
  });

  it('answers a postback 503 database_unavailable while the database is away, then accepts it once it is back', async () => {
    const pb = { ...postbackFor(user.id, 40), transactionId: `outage-${randomUUID()}` };
    const url = signedPostbackUrl(sys, 'cpx', pb);

    db.refuse();
    const during = await callPostback(url);
    expect({ status: during.status, body: during.body }).toEqual({ status: 503, body: 'database_unavailable' });
    db.accept();

    const after = await callPostback(url);
    expect(after.status).toBe(200);
    await earningSettled(sys, 60_000);
    const webhooks = sys.apps.webhooks!.get(DataSource);
    const rows = await webhooks.query('SELECT status FROM webhook_transactions WHERE transaction_id = $1', [pb.transactionId]);
    expect(rows).toEqual([{ status: 'accepted' }]);
  });

  it("answers Stripe's webhook 503 database_unavailable while the database is away, so Stripe delivers it again", async () => {
    const event = { id: `evt_outage_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_outage', object: 'customer' } } };
    db.refuse();
    const during = await sendWebhook(sys, event);
    db.accept();
    expect(during).toEqual({ status: 503, body: { error: { message: 'The service is temporarily unavailable.', reason: 'database_unavailable' } } });
    const webhooks = sys.apps.webhooks!.get(DataSource);
    expect(await webhooks.query('SELECT 1 FROM webhook_transactions WHERE transaction_id = $1', [event.id])).toEqual([]);
    expect((await sendWebhook(sys, event)).status).toBe(200);
  });

  it('answers a redemption 503 database_unavailable while the database is away, and reserves nothing', async () => {
    const key = randomUUID();
    db.refuse();
    const during = await redeem(user.client, newEsim(), key);
    db.accept();
    expect(during.status).toBe(503);
    expect(during.json()).toMatchObject({ code: 'unavailable', reason: 'database_unavailable' });

    const rewards = sys.apps.rewards!.get(DataSource);
    expect(await rewards.query('SELECT 1 FROM redemptions WHERE user_id = $1', [user.id])).toEqual([]);
    const after = await redeem(user.client, newEsim(), key);
    expect(after.status).toBe(200);
    await expectLedgerSound(sys);
  });
});
