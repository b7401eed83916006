import Redis from 'ioredis';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { AccountDeleted, BACKEND_SERVICES, ProvisioningSucceeded, PurchaseEsimIssued } from '@esim/contracts';
import { TEST_DATABASE_URL, TEST_REDIS_URL, waitFor } from '@esim/testing';
import { callPostback, earningSettled, postbackFor, signedPostbackUrl } from '../earning/earning-support';
import { publishEvent } from '../live/live-support';
import { confirmPurchase, createPayment, payWithVisa } from '../purchases/purchases-support';
import { claimGift, FAST_PROVISIONING, newEsim, PASSING_CAPTCHA, redeem, signUpRedeemer } from '../redemption/redemption-support';
import { signUp, uniqueEmail } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { waitForQuiet } from '../support/quiet';
import { startSystem, System } from '../support/system';

/**
 * A user's data (docs/accounts.md, "Your data", "Deletion", "Late events"): a user who earned on
 * a wall, redeemed points for a new eSIM, was gifted data and claimed it, bought an eSIM by card,
 * filed a claim and referred a friend downloads everything every service holds about them, and
 * nothing of anyone else's; then deletes the account, and within a minute no text or JSON column
 * of any service's schema (outbox and inbox included, the emulators' own schemas aside) and no
 * Redis key or value holds their email, name, phone or ICCIDs, nor the ICCID of a provisioning
 * result or an issued purchase that arrives after the deletion. The friend keeps everything.
 */
describe("a user's data: export and deletion", () => {
  let sys: System;
  let pg: Client;
  let redis: Redis;
  const BOSS = uniqueEmail('boss');

  beforeAll(async () => {
    sys = await startSystem({
      env: { ...FAST_PROVISIONING, ADMIN_EMAILS: BOSS, CREDIT_HOLD_SECONDS: '0', PURCHASE_CONFIRM_WAIT_MS: '15000' },
      gatewayEnv: { REDEEM_WAIT_MS: '30000' },
    });
    pg = new Client({ connectionString: TEST_DATABASE_URL });
    await pg.connect();
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await pg?.end();
    redis?.disconnect();
    await sys?.stop();
  });

  /** Every place (schema.table.column, or Redis key) that holds one of `needles`, with the needle found. */
  async function scan(needles: string[]): Promise<string[]> {
    const found: string[] = [];
    const schemas = BACKEND_SERVICES.map((s) => sys.ns.schema(s));
    const { rows: columns } = await pg.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = ANY($1) AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')`,
      [schemas],
    );
    for (const c of columns) {
      for (const needle of needles) {
        const { rows } = await pg.query(
          `SELECT 1 FROM "${c.table_schema}"."${c.table_name}" WHERE strpos(lower("${c.column_name}"::text), lower($1)) > 0 LIMIT 1`,
          [needle],
        );
        if (rows.length > 0) found.push(`${c.table_schema}.${c.table_name}.${c.column_name}: ${needle}`);
      }
    }
    const values = async (key: string): Promise<string[]> => {
      const type = await redis.type(key);
      if (type === 'string') return [(await redis.get(key)) ?? ''];
      if (type === 'hash') return Object.entries(await redis.hgetall(key)).flat();
      if (type === 'list') return redis.lrange(key, 0, -1);
      if (type === 'set') return redis.smembers(key);
      if (type === 'zset') return redis.zrange(key, 0, -1);
      if (type === 'stream') return (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
      return [];
    };
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${sys.ns.id}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const text = [key, ...(await values(key))].join('\n').toLowerCase();
        for (const needle of needles) if (text.includes(needle.toLowerCase())) found.push(`redis ${key}: ${needle}`);
      }
    } while (cursor !== '0');
    return found;
  }

  interface Journey {
    boss: { id: string; client: HttpClient; taskTx: string };
    user: { id: string; email: string; name: string; client: HttpClient };
    friend: { id: string; email: string; name: string; client: HttpClient };
    phone: string;
    iccids: { redeemed: string; gifted: string; bought: string };
  }
  let journey: Journey;

  it('exports, as one JSON file, what every service holds about the caller and nothing about anyone else', async () => {
    const boss = await signUpRedeemer(sys, { email: BOSS, name: 'Boss Person' });
    // Someone else's data, which the export must leave out: a task of the boss's own.
    const bossPostback = postbackFor(boss.id, 50);
    expect((await callPostback(signedPostbackUrl(sys, 'cpx', bossPostback))).status).toBe(200);

    const name = `Zuleica Quaresma${Date.now().toString(36)}`;
    const user = await signUpRedeemer(sys, { name, locale: 'pt' });
    const phone = '+55 11 98765 4321';
    expect((await user.client.patch('/api/user/profile', { phone })).status).toBe(200);

    // Earned on a wall: 1000 points, enough for 1 GB.
    const earned = postbackFor(user.id, 1000);
    expect((await callPostback(signedPostbackUrl(sys, 'cpx', earned))).status).toBe(200);
    await earningSettled(sys);

    // Redeemed points for a new eSIM.
    const redeemed = await redeem(user.client, newEsim('1GB', 'BR'));
    expect(redeemed.status).toBe(200);

    // Gifted by an admin, and claimed.
    expect((await boss.client.post(`/api/admin/gift-data/${user.id}`, { planTier: '1GB', iccid: 'admin-gifted' })).status).toBe(201);
    expect((await user.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    const claimed = await claimGift(user.client, newEsim('1GB', 'US'));
    expect(claimed.status).toBe(200);

    // Reported an offer that never paid.
    const claim = await user.client.post('/api/credit-claims', { wall: 'cpx', offerName: 'Survey about phones', completedOn: new Date().toISOString().slice(0, 10) });
    expect(claim.status).toBeLessThan(300);

    // Bought one by card.
    const payment = await createPayment(user.client, { planType: '3GB', country: 'BR' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    const bought = await confirmPurchase(user.client, payment.paymentIntentId);
    expect(bought.status).toBe(200);

    // Referred a friend, who signs up with the user's code.
    const code = (await user.client.get('/api/referrals')).json().code as string;
    const friendClient = sys.client();
    const friend = { ...(await signUp(friendClient, sys.mail, { name: `Friend Amigo${Date.now().toString(36)}`, referralCode: code })), client: friendClient };
    const iccids = { redeemed: redeemed.json().iccid as string, gifted: claimed.json().iccid as string, bought: bought.json().iccid as string };
    await waitForQuiet(sys, 'everything the user did to be recorded everywhere');
    journey = { boss: { id: boss.id, client: boss.client, taskTx: bossPostback.transactionId }, user: { ...user, name }, friend, phone, iccids };

    const res = await user.client.get('/api/user/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="dados-gratis-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const data = res.json();
    // identity
    expect(data.account).toMatchObject({ id: user.id, email: user.email, name, phone, locale: 'pt', passkeys: [] });
    // the gateway's sessions
    expect(data.sessions).toEqual([expect.objectContaining({ current: true, signedInAt: expect.any(String) })]);
    // rewards
    expect(data.points.balance).toBe(100);
    expect(data.points.statement.map((e: { kind: string; points: number }) => [e.kind, e.points])).toEqual(
      expect.arrayContaining([
        ['signup_bonus', 100],
        [expect.any(String), 1000],
        [expect.any(String), -1000],
      ]),
    );
    expect(data.tasks).toEqual([expect.objectContaining({ userId: user.id, pointsEarned: 1000, provider: 'cpx' })]);
    expect(data.redemptions).toEqual([expect.objectContaining({ source: 'points', pointsUsed: 1000, iccid: iccids.redeemed })]);
    expect(data.creditClaims).toEqual([expect.objectContaining({ wall: 'cpx', offerName: 'Survey about phones', status: expect.any(String) })]);
    // identity and rewards: the invitation code and the friend invited, by status only
    expect(data.referrals).toEqual({ code, invited: [expect.objectContaining({ status: 'pending', pointsForYou: 0 })] });
    expect(res.text).not.toContain(friend.name);
    expect(res.text).not.toContain(friend.email);
    // esim
    expect(data.gifts.map((g: { source: string; status: string }) => `${g.source}:${g.status}`).sort()).toEqual(['admin:delivered', 'points:delivered']);
    expect(data.esimLines.map((l: { iccid: string }) => l.iccid).sort()).toEqual(Object.values(iccids).sort());
    // payments
    expect(data.purchases).toEqual([expect.objectContaining({ id: payment.purchaseId, iccid: iccids.bought, status: 'activated' })]);
    // notifications: what was sent and when, not to which address
    expect(data.emailsSent.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['dataGifted', 'esimReady']));
    for (const e of data.emailsSent) expect(e).toEqual({ kind: expect.any(String), subject: expect.any(String), sentAt: expect.any(String) });

    // Nothing of the boss's: not their id, email, name, nor their task.
    for (const other of [boss.id, BOSS, 'Boss Person', bossPostback.transactionId]) expect(res.text).not.toContain(other);
    // And the boss's own export has none of the user's.
    const theirs = await boss.client.get('/api/user/export');
    expect(theirs.status).toBe(200);
    for (const other of [user.id, user.email, name, ...Object.values(iccids)]) expect(theirs.text).not.toContain(other);

    expect((await sys.client().get('/api/user/export')).status).toBe(401);
  }, 240_000);

  it('leaves no email, name, phone or ICCID of the deleted user anywhere, and a replayed deletion changes nothing', async () => {
    const { user, friend, boss, phone, iccids } = journey;
    // ICCIDs the provider only reports after the deletion (docs/accounts.md, "Late events").
    const late = { iccid: `8999${Date.now()}`.slice(0, 19), lpaCode: `LPA:1$late.example$${randomUUID()}`, msisdn: '+55 11 91234 0000' };
    const needles = [user.email, user.name, phone, phone.replace(/\D/g, ''), iccids.redeemed, iccids.gifted, iccids.bought, late.iccid, late.lpaCode, late.msisdn];
    // An auto top-up rule names its line too (docs/wallet.md).
    expect((await user.client.put(`/api/esim-lines/${iccids.redeemed}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 1 })).status).toBe(200);
    // The scan sees what it looks for: before the deletion, every needle is somewhere.
    const before = await scan(needles);
    for (const needle of [user.email, user.name, ...Object.values(iccids)]) expect(before.join('\n')).toContain(needle);

    expect((await user.client.delete('/api/user/account')).status).toBe(200);
    await waitFor(async () => (await scan(needles)).length === 0, { what: 'every trace of the deleted user to be gone', timeoutMs: 60_000, intervalMs: 500 }).catch(
      async (err) => {
        throw new Error(`${(err as Error).message}\nstill found:\n${(await scan(needles)).join('\n')}`);
      },
    );

    // The boss and the friend, who are no part of the deletion, keep their data; the friend's own
    // view and export name nobody else.
    expect((await scan([BOSS])).length).toBeGreaterThan(0);
    expect((await scan([friend.email, friend.name])).length).toBeGreaterThanOrEqual(2);
    expect((await friend.client.get('/api/user')).json()).toMatchObject({ email: friend.email, name: friend.name });
    const friendsExport = await friend.client.get('/api/user/export');
    expect(friendsExport.status).toBe(200);
    for (const other of [user.email, user.name]) expect(friendsExport.text).not.toContain(other);
    expect((await friend.client.get('/api/referrals')).text).not.toContain(user.name);

    // Late events: a provisioning result for the user's redemption and an issued eSIM for their
    // purchase, both carrying a new line's ICCID, arrive after the deletion.
    const [{ id: redemptionId }] = (
      await pg.query<{ id: string }>(`SELECT id FROM "${sys.ns.schema('rewards')}".redemptions WHERE user_id = $1`, [user.id])
    ).rows;
    const [{ id: purchaseId }] = (await pg.query<{ id: string }>(`SELECT id FROM "${sys.ns.schema('payments')}".esim_purchases WHERE user_id = $1`, [user.id])).rows;
    await publishEvent(sys, ProvisioningSucceeded, {
      provisioningId: randomUUID(),
      redemptionId,
      source: 'points',
      userId: user.id,
      kind: 'new',
      planTier: '1GB',
      amountGB: 1,
      iccid: late.iccid,
      ownLine: true,
      lpaCode: late.lpaCode,
      msisdn: late.msisdn,
      giftId: randomUUID(),
      providerTransactionId: null,
      completedAt: new Date().toISOString(),
    });
    await publishEvent(sys, PurchaseEsimIssued, {
      purchaseId,
      userId: user.id,
      iccid: late.iccid,
      lpaCode: late.lpaCode,
      msisdn: late.msisdn,
      qrCode: 'data:image/png;base64,AAAA',
      providerOrderId: null,
      issuedAt: new Date().toISOString(),
    });
    await waitForQuiet(sys, 'the late events to be handled');
    expect(await scan(needles)).toEqual([]);

    // A replayed event, and a second deletion request, change nothing.
    await publishEvent(sys, AccountDeleted, { userId: user.id, deletedAt: new Date().toISOString() });
    expect((await user.client.delete('/api/user/account')).status).toBe(401);
    expect((await user.client.get('/api/user/export')).status).toBe(401);
    await waitForQuiet(sys, 'the replayed deletion to be handled');
    expect(await scan(needles)).toEqual([]);
    expect((await boss.client.get('/api/user')).json()).toMatchObject({ email: BOSS, name: 'Boss Person' });
    expect((await boss.client.get('/api/user/export')).json().tasks).toEqual([expect.objectContaining({ userId: boss.id, pointsEarned: 50 })]);
  }, 240_000);
});
