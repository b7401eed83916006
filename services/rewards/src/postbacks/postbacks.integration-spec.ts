import { randomUUID } from 'node:crypto';
import {
  AccountDeleted,
  OFFERWALL_IDS,
  OfferwallId,
  PostbackAnswer,
  RewardsRpc,
  SIGNUP_BONUS_POINTS,
  TaskCredited,
  TaskReversed,
} from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { OFFERWALL_PROVIDERS } from './providers';
import { cpxResearch } from './providers/cpx-research';
import { EmulatedPostback } from './providers/offerwall-provider';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { deliveryOf, RewardsUnderTest, sandboxPostbackUrl, startRewardsUnderTest, TEST_PUBLIC_URL } from '../testing/rewards-harness';

/** Per wall: the parameters carrying the amount and the signature, and whether the signature covers the amount. */
const WALLS: Record<OfferwallId, { amount: string; signature: string; signsAmount: boolean }> = {
  rapidoreach: { amount: 'currencyAmt', signature: 'txnHash', signsAmount: false },
  cpx: { amount: 'amount_local', signature: 'secure_hash', signsAmount: false },
  bitlabs: { amount: 'val', signature: 'hash', signsAmount: true },
  lootably: { amount: 'currencyReward', signature: 'hash', signsAmount: true },
  torox: { amount: 'amount', signature: 'sig', signsAmount: false },
};
const MAX_POINTS = 5000;

const replaceParam = (url: string, name: string, value: (old: string) => string) =>
  url.replace(new RegExp(`([?&]${name}=)([^&]*)`), (_m, head: string, old: string) => `${head}${value(old)}`);

describe('offer-wall postbacks (rewards over RPC, real Postgres and RabbitMQ)', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({ POSTBACK_MAX_POINTS: String(MAX_POINTS) });
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });

  const ingest = (provider: OfferwallId, url: string, sourceIp?: string): Promise<PostbackAnswer> =>
    rewards.rpc.call(RewardsRpc.ingestPostback, deliveryOf(provider, url, sourceIp));
  const points = async (userId: string) => (await rewards.rpc.call(RewardsRpc.getBalance, { userId })).points;
  const statuses = async (provider: OfferwallId, transactionId: string): Promise<string[]> =>
    (
      await rewards.db.query('SELECT status FROM webhook_transactions WHERE provider = $1 AND transaction_id = $2 ORDER BY created_at', [
        provider,
        transactionId,
      ])
    ).map((r: { status: string }) => r.status);
  const events = async (type: string, transactionId: string) =>
    (
      await rewards.db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'transactionId' = $2`, [
        type,
        transactionId,
      ])
    ).length;
  const offer = (pointsWorth = 120) => ({
    id: `o${randomUUID().slice(0, 8)}`,
    name: 'Install game app',
    category: 'app' as const,
    points: pointsWorth,
  });
  const postbackFor = (userId: string, action: 'credit' | 'reverse' = 'credit', pointsWorth?: number): EmulatedPostback => ({
    userId,
    transactionId: `tx-${randomUUID()}`,
    action,
    offer: offer(pointsWorth),
    userIp: '198.51.100.4',
  });

  describe.each(OFFERWALL_IDS)('%s', (provider) => {
    const wall = WALLS[provider];
    const ack = { httpStatus: 200, body: OFFERWALL_PROVIDERS[provider].ack };

    it('credits a valid postback, records it, lists the task, announces TaskCredited and answers as the provider expects', async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId);
      const url = sandboxPostbackUrl(provider, pb);

      expect(await ingest(provider, url)).toEqual(ack);
      expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 120);
      expect(await statuses(provider, pb.transactionId)).toEqual(['credited']);
      const [row] = await rewards.db.query(
        'SELECT user_id, amount_mb, raw_payload, source_ip FROM webhook_transactions WHERE transaction_id = $1',
        [pb.transactionId],
      );
      expect(row).toMatchObject({ user_id: userId, amount_mb: 120, source_ip: '127.0.0.1', raw_payload: { method: 'GET', url } });
      const { tasks } = await rewards.rpc.call(RewardsRpc.listTasks, { userId });
      expect(tasks).toEqual([
        {
          id: expect.any(String),
          userId,
          taskType: expect.any(String),
          pointsEarned: 120,
          completedAt: expect.any(String),
          completed: true,
          provider,
          reversedAt: null,
        },
      ]);
      expect(await events(TaskCredited.routingKey, pb.transactionId)).toBe(1);
    });

    it('credits the same postback sent 10 times in a row and 10 times at once exactly once', async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId);
      const url = sandboxPostbackUrl(provider, pb);

      const answers: PostbackAnswer[] = [];
      for (let i = 0; i < 10; i++) answers.push(await ingest(provider, url));
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => ingest(provider, url)))));

      expect(answers).toEqual(Array(20).fill(ack));
      expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 120);
      const seen = await statuses(provider, pb.transactionId);
      expect(seen.filter((s) => s === 'credited')).toHaveLength(1);
      expect(seen.filter((s) => s === 'duplicate')).toHaveLength(19);
      expect(await events(TaskCredited.routingKey, pb.transactionId)).toBe(1);
    });

    it('credits nothing for a wrong signature, and records the delivery', async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId);
      const forged = replaceParam(sandboxPostbackUrl(provider, pb), wall.signature, (old) =>
        old.replace(/[0-9a-f]/g, (c) => (c === '0' ? '1' : '0')),
      );

      expect(await ingest(provider, forged)).toEqual({ httpStatus: 403, body: 'rejected_signature' });
      expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
      expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_signature']);
    });

    it(`credits nothing for a changed amount (${wall.signsAmount ? 'the signature covers it' : 'the signature does not cover it: a replay is a duplicate, the cap bounds a new one'})`, async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId);
      const url = sandboxPostbackUrl(provider, pb);
      const tampered = replaceParam(url, wall.amount, (old) => `${old.replace(/\..*/, '')}0`);

      if (wall.signsAmount) {
        expect(await ingest(provider, tampered)).toEqual({ httpStatus: 403, body: 'rejected_signature' });
        expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_signature']);
        expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
      } else {
        expect(await ingest(provider, url)).toEqual(ack);
        expect(await ingest(provider, tampered)).toEqual(ack);
        expect(await statuses(provider, pb.transactionId)).toEqual(['credited', 'duplicate']);
        expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 120);
      }

      const huge = postbackFor(userId, 'credit', MAX_POINTS + 1);
      expect(await ingest(provider, sandboxPostbackUrl(provider, huge))).toEqual({ httpStatus: 400, body: 'rejected_amount' });
      expect(await statuses(provider, huge.transactionId)).toEqual(['rejected_amount']);
    });

    it('credits nothing to an unknown user, and records the delivery', async () => {
      const stranger = randomUUID();
      const pb = postbackFor(stranger);

      expect(await ingest(provider, sandboxPostbackUrl(provider, pb))).toEqual({ httpStatus: 404, body: 'rejected_unknown_user' });
      expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_unknown_user']);
      expect(await rewards.db.query('SELECT 1 FROM ledger_accounts WHERE user_id = $1', [stranger])).toEqual([]);
    });

    it('deducts a reversal exactly once, even replayed in a row and at once', async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId);
      expect(await ingest(provider, sandboxPostbackUrl(provider, pb))).toEqual(ack);
      const reversal = sandboxPostbackUrl(provider, { ...pb, action: 'reverse' });

      const answers = [await ingest(provider, reversal), await ingest(provider, reversal)];
      answers.push(...(await Promise.all(Array.from({ length: 6 }, () => ingest(provider, reversal)))));

      expect(answers).toEqual(Array(8).fill(ack));
      expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
      const reversals = await rewards.db.query(
        `SELECT r.amount FROM ledger_transfers r JOIN ledger_transfers c ON c.id = r.linked_id WHERE c.reference = $1 AND r.kind = 'offerwall_reversal'`,
        [`${provider}:${pb.transactionId}`],
      );
      expect(reversals).toEqual([{ amount: '120' }]);
      const { tasks } = await rewards.rpc.call(RewardsRpc.listTasks, { userId });
      expect(tasks[0]).toMatchObject({ completed: false, reversedAt: expect.any(String) });
      expect(await events(TaskReversed.routingKey, pb.transactionId)).toBe(1);
    });

    it('refuses a reversal of a transaction it never credited (the provider retries it later)', async () => {
      const userId = await rewards.registerUser();
      const pb = postbackFor(userId, 'reverse');
      expect(await ingest(provider, sandboxPostbackUrl(provider, pb))).toEqual({ httpStatus: 404, body: 'rejected_unknown_transaction' });
      expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
    });
  });

  it('lists every wall for a user in sandbox mode, each embedding the local emulator', async () => {
    const userId = await rewards.registerUser();
    const { walls } = await rewards.rpc.call(RewardsRpc.listOfferwalls, { userId });
    expect(walls.map((w) => w.id)).toEqual([...OFFERWALL_IDS]);
    for (const w of walls) {
      expect(w).toMatchObject({
        sandbox: true,
        embed: { kind: 'iframe', url: `/sandbox/offerwalls/${w.id}?uid=${encodeURIComponent(w.uid)}` },
      });
    }
    expect(walls.find((w) => w.id === 'rapidoreach')?.uid).toMatch(new RegExp(`^${userId.replace(/-/g, '')}-1000-[0-9a-f]{32}$`));
  });

  it('refuses repeated parameters and malformed deliveries, recording them', async () => {
    const userId = await rewards.registerUser();
    const pb = postbackFor(userId);
    const url = sandboxPostbackUrl('cpx', pb);
    const repeated = `${url}&trans_id=other`;
    expect(await ingest('cpx', repeated)).toEqual({ httpStatus: 400, body: 'rejected_invalid' });
    const noAmount = replaceParam(
      sandboxPostbackUrl('cpx', { ...pb, transactionId: `malformed-${randomUUID()}` }),
      'amount_local',
      () => 'lots',
    );
    expect(await ingest('cpx', noAmount)).toEqual({ httpStatus: 400, body: 'rejected_amount' });
    const recorded = await rewards.db.query(
      `SELECT transaction_id, status FROM webhook_transactions WHERE raw_payload->>'url' = ANY($1) ORDER BY created_at`,
      [[repeated, noAmount]],
    );
    // The repeated id is ambiguous, so none is recorded for it.
    expect(recorded).toEqual([
      { transaction_id: null, status: 'rejected_invalid' },
      { transaction_id: expect.stringMatching(/^malformed-/), status: 'rejected_amount' },
    ]);
    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
  });

  it('after AccountDeleted: the raw payloads (user IP) are erased, the ledger kept, new postbacks refused', async () => {
    const userId = await rewards.registerUser();
    const pb = postbackFor(userId);
    await ingest('lootably', sandboxPostbackUrl('lootably', pb));
    const deleted = await rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() });
    await waitFor(async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [deleted.id])).length === 1, {
      what: 'AccountDeleted applied',
    });

    const rows = await rewards.db.query('SELECT status, amount_mb, raw_payload FROM webhook_transactions WHERE user_id = $1', [userId]);
    expect(rows).toEqual([{ status: 'credited', amount_mb: 120, raw_payload: { erased: 'account deleted' } }]);
    expect(await ingest('lootably', sandboxPostbackUrl('lootably', postbackFor(userId)))).toEqual({
      httpStatus: 404,
      body: 'rejected_unknown_user',
    });
  });
});

describe('offer walls with live credentials (sandbox off)', () => {
  let rewards: RewardsUnderTest;
  const CPX = { appId: '4242', secret: 'live-cpx-secure-hash' };
  const PROVIDER_IP = '198.51.100.1';

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({
      OFFERWALLS_SANDBOX: 'false',
      CPX_APP_ID: CPX.appId,
      CPX_SECURE_HASH: CPX.secret,
      CPX_ALLOWED_IPS: `${PROVIDER_IP},2001:db8::/32`,
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });

  const ingest = (provider: OfferwallId, url: string, sourceIp?: string) =>
    rewards.rpc.call(RewardsRpc.ingestPostback, deliveryOf(provider, url, sourceIp));
  const liveUrl = (pb: EmulatedPostback) => cpxResearch.sign(CPX, pb, `${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`);

  it('offers only the configured wall, with the provider widget', async () => {
    const userId = await rewards.registerUser();
    expect(await rewards.rpc.call(RewardsRpc.listOfferwalls, { userId })).toEqual({
      walls: [{ id: 'cpx', name: 'CPX Research', sandbox: false, uid: userId, embed: cpxResearch.embed(CPX, userId) }],
    });
  });

  it('credits only from allowed source addresses and with the live secret; a disabled wall is refused and recorded', async () => {
    const userId = await rewards.registerUser();
    const pb: EmulatedPostback = {
      userId,
      transactionId: `live-${randomUUID()}`,
      action: 'credit',
      offer: { id: '1', name: 'Survey', category: 'survey', points: 40 },
      userIp: '198.51.100.9',
    };

    expect(await ingest('cpx', liveUrl(pb), '203.0.113.50')).toEqual({ httpStatus: 403, body: 'rejected_ip' });
    expect(await ingest('cpx', sandboxPostbackUrl('cpx', pb), PROVIDER_IP)).toEqual({ httpStatus: 403, body: 'rejected_signature' });
    expect(await ingest('cpx', liveUrl(pb), `::ffff:${PROVIDER_IP}`)).toEqual({ httpStatus: 200, body: '1' });
    expect(await ingest('cpx', liveUrl({ ...pb, transactionId: `live-${randomUUID()}` }), '2001:db8::7')).toEqual({
      httpStatus: 200,
      body: '1',
    });
    expect((await rewards.rpc.call(RewardsRpc.getBalance, { userId })).points).toBe(SIGNUP_BONUS_POINTS + 80);

    const other = sandboxPostbackUrl('bitlabs', { ...pb, transactionId: 'disabled-1' });
    expect(await ingest('bitlabs', other)).toEqual({ httpStatus: 404, body: 'rejected_disabled' });
    expect(await rewards.db.query(`SELECT status FROM webhook_transactions WHERE provider = 'bitlabs'`)).toEqual([
      { status: 'rejected_disabled' },
    ]);
  });
});
