import { randomUUID } from 'node:crypto';
import querystring from 'node:querystring';
import {
  AccountDeleted,
  OFFERWALL_IDS,
  OfferwallId,
  OfferwallPostbackRefused,
  OfferwallPostbacksAccepted,
  SANDBOX_SIGNED_IN_USER_HEADER,
  UserRegistered,
  WebhooksRpc,
} from '@esim/contracts';
import { asUser } from '@esim/testing';
import { deliveryOf } from './postback-delivery';
import { PostbackIngestion } from './postback-ingestion.service';
import { OFFERWALL_PROVIDERS } from './providers';
import { cpxResearch } from './providers/cpx-research';
import { lootably } from './providers/lootably';
import { rapidoReach } from './providers/rapidoreach';
import { EmulatedPostback } from './providers/offerwall-provider';
import { sandboxCredentials } from '../offerwalls/sandbox-credentials';
import { signedPostbackUrl, startWebhooksUnderTest, TEST_PUBLIC_URL, WebhooksUnderTest } from '../testing/webhooks-harness';
import { startSandboxesUnderTest } from '../../../../sandboxes/src/testing/sandboxes-under-test';

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

const postbackFor = (userId: string, action: 'credit' | 'reverse' = 'credit', points = 120): EmulatedPostback => ({
  userId,
  transactionId: `tx-${randomUUID()}`,
  action,
  offer: { id: `o${randomUUID().slice(0, 8)}`, name: 'Install game app', category: 'app', points },
  userIp: '198.51.100.4',
});

describe('offer-wall postbacks at the ingestion service (HTTP, real Postgres and RabbitMQ)', () => {
  let wh: WebhooksUnderTest;

  beforeAll(async () => {
    wh = await startWebhooksUnderTest({ POSTBACK_MAX_POINTS: String(MAX_POINTS) });
  });
  afterAll(() => wh?.stop());

  const statuses = async (provider: OfferwallId, transactionId: string): Promise<string[]> =>
    (
      await wh.db.query('SELECT status FROM webhook_transactions WHERE provider = $1 AND transaction_id = $2 ORDER BY created_at, status', [
        provider,
        transactionId,
      ])
    ).map((r: { status: string }) => r.status);

  describe.each(OFFERWALL_IDS)('%s', (provider) => {
    const wall = WALLS[provider];
    const ack = { status: 200, body: OFFERWALL_PROVIDERS[provider].ack };

    it('accepts a valid postback: answers as the provider expects, records it, and hands it to rewards once', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      const url = signedPostbackUrl(provider, pb);

      expect(await wh.call(url, { from: '198.51.100.20' })).toEqual(ack);
      const rows = await wh.db.query(
        'SELECT status, action, user_id, amount_mb, raw_payload, source_ip FROM webhook_transactions WHERE provider = $1 AND transaction_id = $2',
        [provider, pb.transactionId],
      );
      expect(rows).toEqual([
        {
          status: 'accepted',
          action: 'credit',
          user_id: userId,
          amount_mb: 120,
          source_ip: '198.51.100.20',
          raw_payload: expect.objectContaining({ method: 'GET', url, body: null }),
        },
      ]);
      expect(rows[0].raw_payload.headers).toMatchObject({ 'user-agent': 'provider-test' });
      expect(await wh.accepted(provider, pb.transactionId)).toEqual([
        {
          deliveryId: expect.any(String),
          provider,
          action: 'credit',
          transactionId: pb.transactionId,
          creditTransactionId: pb.transactionId,
          userId,
          points: 120,
          taskType: expect.any(String),
          // Read from the wall's category or the offer's name ("Install game app"); CPX's postback names neither: a survey wall.
          kind: provider === 'cpx' ? 'survey' : 'app_install',
          // The walls whose postbacks name the offer (docs/earning.md, "Reversals explained").
          ...(provider === 'bitlabs' || provider === 'lootably' || provider === 'torox' ? { offerName: pb.offer.name } : {}),
          acceptedAt: expect.any(String),
        },
      ]);
    });

    it('accepts the same postback sent 10 times in a row and 10 times at once exactly once', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      const url = signedPostbackUrl(provider, pb);

      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await wh.call(url));
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => wh.call(url)))));

      expect(answers).toEqual(Array(20).fill(ack));
      const seen = await statuses(provider, pb.transactionId);
      expect(seen.filter((s) => s === 'accepted')).toHaveLength(1);
      expect(seen.filter((s) => s === 'duplicate')).toHaveLength(19);
      expect(await wh.accepted(provider, pb.transactionId)).toHaveLength(1);
    });

    it('accepts nothing for a wrong signature, and records the delivery', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      const forged = replaceParam(signedPostbackUrl(provider, pb), wall.signature, (old) => old.replace(/[0-9a-f]/g, (c) => (c === '0' ? '1' : '0')));

      expect(await wh.call(forged)).toEqual({ status: 403, body: 'rejected_signature' });
      expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_signature']);
      expect(await wh.accepted(provider, pb.transactionId)).toEqual([]);
    });

    it(`accepts nothing new for a changed amount (${wall.signsAmount ? 'the signature covers it' : 'the signature does not cover it: a replay is a duplicate, the cap bounds a new one'})`, async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      const url = signedPostbackUrl(provider, pb);
      const tampered = replaceParam(url, wall.amount, (old) => `${old.replace(/\..*/, '')}0`);

      if (wall.signsAmount) {
        expect(await wh.call(tampered)).toEqual({ status: 403, body: 'rejected_signature' });
        expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_signature']);
        expect(await wh.accepted(provider, pb.transactionId)).toEqual([]);
      } else {
        expect(await wh.call(url)).toEqual(ack);
        expect(await wh.call(tampered)).toEqual(ack);
        expect(await statuses(provider, pb.transactionId)).toEqual(['accepted', 'duplicate']);
        expect((await wh.accepted(provider, pb.transactionId)).map((e) => e.points)).toEqual([120]);
      }

      const huge = postbackFor(userId, 'credit', MAX_POINTS + 1);
      expect(await wh.call(signedPostbackUrl(provider, huge))).toEqual({ status: 400, body: 'rejected_amount' });
      expect(await statuses(provider, huge.transactionId)).toEqual(['rejected_amount']);
    });

    it('accepts nothing for a user identity never announced, and records the delivery', async () => {
      const pb = postbackFor(randomUUID());
      expect(await wh.call(signedPostbackUrl(provider, pb))).toEqual({ status: 404, body: 'rejected_unknown_user' });
      expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_unknown_user']);
      expect(await wh.accepted(provider, pb.transactionId)).toEqual([]);
    });

    it('accepts a reversal exactly once, even replayed in a row and at once', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      expect(await wh.call(signedPostbackUrl(provider, pb))).toEqual(ack);
      const reversal = signedPostbackUrl(provider, { ...pb, action: 'reverse' });

      const answers = [await wh.call(reversal), await wh.call(reversal)];
      answers.push(...(await Promise.all(Array.from({ length: 6 }, () => wh.call(reversal)))));

      expect(answers).toEqual(Array(8).fill(ack));
      const events = await wh.accepted(provider, pb.transactionId);
      expect(events.map((e) => e.action)).toEqual(['credit', 'reverse']);
      expect(events[1]).toMatchObject({ userId, creditTransactionId: pb.transactionId });
    });

    it('refuses a reversal of a transaction it never accepted (the provider retries it later)', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId, 'reverse');
      expect(await wh.call(signedPostbackUrl(provider, pb))).toEqual({ status: 404, body: 'rejected_unknown_transaction' });
      expect(await wh.accepted(provider, pb.transactionId)).toEqual([]);
    });
  });

  describe('amounts at the edges', () => {
    const ackOf = (provider: OfferwallId) => ({ status: 200, body: OFFERWALL_PROVIDERS[provider].ack });

    it.each(['cpx', 'bitlabs'] as const)('%s: a reversal stating 0 points is accepted (it takes back the whole credit), once', async (provider) => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      expect(await wh.call(signedPostbackUrl(provider, pb))).toEqual(ackOf(provider));
      const reversal = signedPostbackUrl(provider, { ...pb, action: 'reverse', offer: { ...pb.offer, points: 0 } });

      expect(await wh.call(reversal)).toEqual(ackOf(provider));
      expect(await wh.call(reversal)).toEqual(ackOf(provider));
      expect((await wh.accepted(provider, pb.transactionId)).map((e) => [e.action, e.points])).toEqual([
        ['credit', 120],
        ['reverse', 0],
      ]);
    });

    it.each(['cpx', 'bitlabs'] as const)('%s: a credit with a negative amount is refused, not credited as its absolute value', async (provider) => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId, 'credit', -50);
      const url =
        provider === 'cpx'
          ? replaceParam(signedPostbackUrl(provider, { ...pb, offer: { ...pb.offer, points: 50 } }), 'amount_local', () => '-50')
          : signedPostbackUrl(provider, pb);

      expect(await wh.call(url)).toEqual({ status: 400, body: 'rejected_amount' });
      expect(await statuses(provider, pb.transactionId)).toEqual(['rejected_amount']);
      expect(await wh.accepted(provider, pb.transactionId)).toEqual([]);
    });

    it.each(['cpx', 'lootably'] as const)('%s: a reversal stating more than the cap is accepted: it takes back exactly its credit', async (provider) => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId);
      expect(await wh.call(signedPostbackUrl(provider, pb))).toEqual(ackOf(provider));
      const reversal = signedPostbackUrl(provider, { ...pb, action: 'reverse', offer: { ...pb.offer, points: MAX_POINTS + 1 } });

      expect(await wh.call(reversal)).toEqual(ackOf(provider));
      expect((await wh.accepted(provider, pb.transactionId)).map((e) => e.action)).toEqual(['credit', 'reverse']);
    });

    it('a 0-point credit is acknowledged and recorded as ignored, and handed to nobody', async () => {
      const userId = await wh.registerUser();
      const pb = postbackFor(userId, 'credit', 0);
      expect(await wh.call(signedPostbackUrl('lootably', pb))).toEqual(ackOf('lootably'));
      expect(await statuses('lootably', pb.transactionId)).toEqual(['ignored']);
      expect(await wh.accepted('lootably', pb.transactionId)).toEqual([]);
    });
  });

  // The platform's DB_BACKEND_FLUSH_AFTER_KB reaches the service as started: the answers wait on
  // their commit's WAL flush, which the kernel's writeback of data pages would otherwise hold back.
  it('writes its data pages out as it goes, on every connection of its pool', async () => {
    const seen = await Promise.all(
      [1, 2, 3].map(() => wh.db.query("SELECT current_setting('backend_flush_after') AS v, pg_backend_pid() AS pid, pg_sleep(0.05)")),
    );
    expect(new Set(seen.map(([row]) => row.pid)).size).toBe(3);
    expect(seen.map(([row]) => row.v)).toEqual(['256kB', '256kB', '256kB']);
  });

  it('refuses repeated parameters and malformed deliveries, recording them', async () => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId);
    const url = signedPostbackUrl('cpx', pb);
    const repeated = `${url}&trans_id=other`;
    expect(await wh.call(repeated)).toEqual({ status: 400, body: 'rejected_invalid' });
    const noAmount = replaceParam(signedPostbackUrl('cpx', { ...pb, transactionId: `malformed-${randomUUID()}` }), 'amount_local', () => 'lots');
    expect(await wh.call(noAmount)).toEqual({ status: 400, body: 'rejected_amount' });
    expect(await wh.call(`${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`, { json: '{"trans_id": [1, broken' })).toEqual({
      status: 400,
      body: 'rejected_invalid',
    });
    expect((await wh.call(`${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`, { form: `x=${'a'.repeat(100_000)}` })).status).toBe(413);
    expect(await wh.call(`${TEST_PUBLIC_URL}/webhooks/offerwalls/adgem?x=1`)).toEqual({ status: 404, body: 'not_found' });

    const recorded = await wh.db.query(
      `SELECT transaction_id, status FROM webhook_transactions WHERE raw_payload->>'url' = ANY($1) ORDER BY created_at`,
      [[repeated, noAmount]],
    );
    // The repeated id is ambiguous, so none is recorded for it.
    expect(recorded).toEqual([
      { transaction_id: null, status: 'rejected_invalid' },
      { transaction_id: expect.stringMatching(/^malformed-/), status: 'rejected_amount' },
    ]);
    expect(await wh.accepted('cpx', pb.transactionId)).toEqual([]);
  });

  it('reads a postback POSTed as a form', async () => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId, 'credit', 10);
    const form = new URL(signedPostbackUrl('cpx', pb)).searchParams.toString();
    expect(await wh.call(`${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`, { form })).toEqual({ status: 200, body: '1' });
    expect((await wh.accepted('cpx', pb.transactionId)).map((e) => e.points)).toEqual([10]);
  });

  it('refuses the reversal of another user’s transaction', async () => {
    const owner = await wh.registerUser();
    const thief = await wh.registerUser();
    const pb = postbackFor(owner);
    expect((await wh.call(signedPostbackUrl('cpx', pb))).status).toBe(200);
    expect(await wh.call(signedPostbackUrl('cpx', { ...pb, userId: thief, action: 'reverse' }))).toEqual({
      status: 404,
      body: 'rejected_unknown_transaction',
    });
    expect((await wh.accepted('cpx', pb.transactionId)).map((e) => e.action)).toEqual(['credit']);
  });

  it('after AccountDeleted: the raw payloads (user IP) are erased, new postbacks refused — also when the deletion came first', async () => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId);
    await wh.call(signedPostbackUrl('lootably', pb));
    await wh.applied(await wh.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() }));

    const rows = await wh.db.query('SELECT status, amount_mb, raw_payload FROM webhook_transactions WHERE user_id = $1', [userId]);
    expect(rows).toEqual([{ status: 'accepted', amount_mb: 120, raw_payload: { erased: 'account deleted' } }]);
    expect(await wh.call(signedPostbackUrl('lootably', postbackFor(userId)))).toEqual({ status: 404, body: 'rejected_unknown_user' });

    const early = randomUUID();
    await wh.applied(await wh.publish(AccountDeleted, { userId: early, deletedAt: new Date().toISOString() }));
    await wh.applied(
      await wh.publish(UserRegistered, { userId: early, email: 'e@example.test', name: 'E', locale: 'en', registeredAt: new Date().toISOString() }),
    );
    expect(await wh.call(signedPostbackUrl('lootably', postbackFor(early)))).toEqual({ status: 404, body: 'rejected_unknown_user' });
  });

  it('decides a burst that shares one statement as if each delivery came alone (replays, a reversal before its credit, refusals)', async () => {
    const userId = await wh.registerUser();
    const stranger = randomUUID();
    const [first, second, third] = [postbackFor(userId), postbackFor(userId), postbackFor(userId)];
    const zero = postbackFor(userId, 'credit', 0);
    const badSignature = replaceParam(signedPostbackUrl('cpx', postbackFor(userId)), 'secure_hash', () => '0'.repeat(32));
    const sent: Array<[string, string]> = [
      ['first', signedPostbackUrl('cpx', first)],
      ['first replayed', signedPostbackUrl('cpx', first)],
      ['second', signedPostbackUrl('cpx', second)],
      ['second reversed', signedPostbackUrl('cpx', { ...second, action: 'reverse' })],
      // Submitted before its credit: the statement records credits first.
      ['third reversed', signedPostbackUrl('cpx', { ...third, action: 'reverse' })],
      ['third', signedPostbackUrl('cpx', third)],
      ['first replayed again', signedPostbackUrl('cpx', first)],
      ['zero', signedPostbackUrl('cpx', zero)],
      ['stranger', signedPostbackUrl('cpx', postbackFor(stranger))],
      ['bad signature', badSignature],
    ];
    const ingestion = wh.app.get(PostbackIngestion);
    // Submitted in one turn of the event loop: one group commit, one statement.
    const outcomes = await Promise.all(
      sent.map(([, url]) => {
        const target = url.slice(TEST_PUBLIC_URL.length);
        return ingestion.ingest(
          deliveryOf('cpx', {
            method: 'GET',
            fullUrl: url,
            query: querystring.parse(target.slice(target.indexOf('?') + 1)) as Record<string, string>,
            body: null,
            rawHeaders: { 'user-agent': 'provider-test' },
            sourceIp: '198.51.100.4',
          }),
        );
      }),
    );

    expect(Object.fromEntries(sent.map(([name], i) => [name, outcomes[i].body]))).toEqual({
      first: '1',
      'first replayed': '1',
      second: '1',
      'second reversed': '1',
      'third reversed': '1',
      third: '1',
      'first replayed again': '1',
      zero: '1',
      stranger: 'rejected_unknown_user',
      'bad signature': 'rejected_signature',
    });
    expect(await statuses('cpx', first.transactionId)).toEqual(['accepted', 'duplicate', 'duplicate']);
    expect(await statuses('cpx', second.transactionId)).toEqual(['accepted', 'accepted']);
    expect(await statuses('cpx', zero.transactionId)).toEqual(['ignored']);
    expect((await wh.accepted('cpx', first.transactionId)).map((e) => e.action)).toEqual(['credit']);
    expect((await wh.accepted('cpx', third.transactionId)).map((e) => e.action)).toEqual(['credit', 'reverse']);
    const [{ moments }] = await wh.db.query('SELECT count(DISTINCT created_at)::int AS moments FROM webhook_transactions WHERE user_id = $1', [userId]);
    expect(moments).toBe(1);
    // One event for the statement: the five accepted deliveries, credits first, named by their rows.
    const events: Array<{ id: string; postbacks: Array<{ deliveryId: string; action: string; creditTransactionId: string }> }> = await wh.db.query(
      `SELECT o.id, o.envelope->'payload'->'postbacks' AS postbacks FROM outbox_events o
        WHERE o.routing_key = $1 AND o.envelope->'payload'->'postbacks' @> $2::jsonb`,
      [OfferwallPostbacksAccepted.routingKey, JSON.stringify([{ userId }])],
    );
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event.postbacks.map((p) => [p.creditTransactionId, p.action])).toEqual([
      [first.transactionId, 'credit'],
      [second.transactionId, 'credit'],
      [third.transactionId, 'credit'],
      [second.transactionId, 'reverse'],
      [third.transactionId, 'reverse'],
    ]);
    const accepted: Array<{ id: string }> = await wh.db.query(`SELECT id FROM webhook_transactions WHERE user_id = $1 AND status = 'accepted' ORDER BY id`, [userId]);
    expect(event.postbacks.map((p) => p.deliveryId).sort()).toEqual(accepted.map((r) => r.id));
    // Deliveries and their event have time-ordered ids (UUIDv7): each index takes them at its right edge.
    for (const uuid of [event.id, ...accepted.map((r) => r.id)]) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it('records against the delivery what rewards could not apply', async () => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId);
    await wh.call(signedPostbackUrl('torox', pb));
    const [accepted] = await wh.accepted('torox', pb.transactionId);
    await wh.applied(
      await wh.publish(OfferwallPostbackRefused, {
        deliveryId: accepted.deliveryId,
        provider: 'torox',
        transactionId: pb.transactionId,
        outcome: 'rejected_unknown_user',
        refusedAt: new Date().toISOString(),
      }),
    );
    expect(await statuses('torox', pb.transactionId)).toEqual(['rejected_unknown_user']);
  });

  it('lists every wall in sandbox mode, each embedding the local emulator', async () => {
    const userId = randomUUID();
    const { walls } = await asUser(userId, () => wh.rpc.call(WebhooksRpc.listOfferwalls, {}));
    expect(walls.map((w) => w.id)).toEqual([...OFFERWALL_IDS]);
    for (const w of walls) {
      expect(w).toMatchObject({ sandbox: true, embed: { kind: 'iframe', url: `/sandbox/offerwalls/${w.id}?uid=${encodeURIComponent(w.uid)}` } });
    }
    expect(walls.find((w) => w.id === 'rapidoreach')?.uid).toMatch(new RegExp(`^${userId.replace(/-/g, '')}-1000-[0-9a-f]{32}$`));
  });

  it('the sandbox wall (the sandboxes app) posts back to this service, signing the public URL (BitLabs signs all of it), and reverses once', async () => {
    const sandboxes = await startSandboxesUnderTest(wh.ns, { PUBLIC_URL: TEST_PUBLIC_URL, OFFERWALLS_POSTBACK_URL: wh.origin });
    try {
      const userId = await wh.registerUser();
      // What the gateway's /sandbox proxy sends for the signed-in user.
      const wall = (path: string, form?: Record<string, string>) =>
        fetch(`${sandboxes.url}/sandbox/offerwalls/${path}`, {
          method: form ? 'POST' : 'GET',
          headers: { [SANDBOX_SIGNED_IN_USER_HEADER]: userId, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          body: form ? new URLSearchParams(form).toString() : undefined,
          redirect: 'manual',
        });
      for (const provider of ['bitlabs', 'cpx'] as const) {
        const uid = OFFERWALL_PROVIDERS[provider].externalUserId(sandboxCredentials(provider), userId);
        const done = await wall(`${provider}/complete`, { uid, offerId: 'sbx-survey' });
        expect([done.status, done.headers.get('location')]).toEqual([303, `/sandbox/offerwalls/${provider}?uid=${encodeURIComponent(uid)}&notice=completed`]);
        const page = await (await wall(`${provider}?uid=${encodeURIComponent(uid)}`)).text();
        const transactionId = /name="transactionId" value="([^"]+)"/.exec(page)![1];
        const [credit] = await wh.db.query(`SELECT raw_payload->>'url' AS url FROM webhook_transactions WHERE transaction_id = $1`, [transactionId]);
        expect(credit.url.startsWith(`${TEST_PUBLIC_URL}/webhooks/offerwalls/${provider}?`)).toBe(true);

        const reversed = await wall(`${provider}/reverse`, { uid, transactionId });
        expect(reversed.headers.get('location')).toMatch(/notice=reversed$/);
        expect((await wh.accepted(provider, transactionId)).map((e) => [e.action, e.points])).toEqual([
          ['credit', 75],
          ['reverse', 75],
        ]);
        expect(await (await wall(`${provider}?uid=${encodeURIComponent(uid)}`)).text()).toContain('(reversed)');
      }
    } finally {
      await sandboxes.stop();
    }
  });
});

describe('offer walls with live credentials (sandbox off)', () => {
  let wh: WebhooksUnderTest;
  const CPX = { appId: '4242', secret: 'live-cpx-secure-hash' };
  const PROVIDER_IP = '198.51.100.1';

  beforeAll(async () => {
    wh = await startWebhooksUnderTest({
      OFFERWALLS_SANDBOX: 'false',
      CPX_APP_ID: CPX.appId,
      CPX_SECURE_HASH: CPX.secret,
      CPX_ALLOWED_IPS: `${PROVIDER_IP},2001:db8::/32`,
    });
  });
  afterAll(() => wh?.stop());

  const liveUrl = (pb: EmulatedPostback) => cpxResearch.sign(CPX, pb, `${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`);

  it('offers only the configured wall, with the provider widget', async () => {
    const userId = randomUUID();
    expect(await asUser(userId, () => wh.rpc.call(WebhooksRpc.listOfferwalls, {}))).toEqual({
      walls: [{ id: 'cpx', name: 'CPX Research', sandbox: false, uid: userId, embed: cpxResearch.embed(CPX, userId) }],
    });
  });

  it('accepts only from allowed source addresses and with the live secret; a disabled wall is refused and recorded', async () => {
    const userId = await wh.registerUser();
    const pb: EmulatedPostback = {
      userId,
      transactionId: `live-${randomUUID()}`,
      action: 'credit',
      offer: { id: '1', name: 'Survey', category: 'survey', points: 40 },
      userIp: '198.51.100.9',
    };

    expect(await wh.call(liveUrl(pb), { from: '203.0.113.50' })).toEqual({ status: 403, body: 'rejected_ip' });
    expect(await wh.call(signedPostbackUrl('cpx', pb), { from: PROVIDER_IP })).toEqual({ status: 403, body: 'rejected_signature' });
    expect(await wh.call(liveUrl(pb), { from: `::ffff:${PROVIDER_IP}` })).toEqual({ status: 200, body: '1' });
    const other = { ...pb, transactionId: `live-${randomUUID()}` };
    expect(await wh.call(liveUrl(other), { from: '2001:db8::7' })).toEqual({ status: 200, body: '1' });
    expect(await wh.accepted('cpx', pb.transactionId)).toHaveLength(1);
    expect(await wh.accepted('cpx', other.transactionId)).toHaveLength(1);

    const disabled = signedPostbackUrl('bitlabs', { ...pb, transactionId: 'disabled-1' });
    expect(await wh.call(disabled)).toEqual({ status: 404, body: 'rejected_disabled' });
    expect(await wh.db.query(`SELECT status FROM webhook_transactions WHERE provider = 'bitlabs'`)).toEqual([{ status: 'rejected_disabled' }]);
  });
});

/**
 * CPX and RapidoReach sign the transaction id only: the status (CPX) and the amount's sign
 * (RapidoReach) are not covered, so a leaked credit URL, changed, is a signed reversal. Lootably
 * signs no transaction id: a leaked URL with fresh ids is a signed new credit. Their allow-lists
 * are therefore required live, and are what refuses the forgery.
 */
describe('a leaked signed credit URL, forged into a reversal or a new credit', () => {
  let wh: WebhooksUnderTest;
  const PROVIDER_IP = '198.51.100.1';
  const ATTACKER_IP = '203.0.113.66';
  const CPX = { appId: '4242', secret: 'live-cpx-secure-hash' };
  const RR = { appId: 'rr-app', appKey: 'rr-key', secret: 'rr-secret' };
  const LOOT = { appId: 'placement', secret: 'loot-secret' };

  beforeAll(async () => {
    wh = await startWebhooksUnderTest({
      OFFERWALLS_SANDBOX: 'false',
      CPX_APP_ID: CPX.appId,
      CPX_SECURE_HASH: CPX.secret,
      CPX_ALLOWED_IPS: PROVIDER_IP,
      RAPIDOREACH_APP_ID: RR.appId,
      RAPIDOREACH_APP_KEY: RR.appKey,
      RAPIDOREACH_APP_SECRET: RR.secret,
      RAPIDOREACH_ALLOWED_IPS: PROVIDER_IP,
      LOOTABLY_PLACEMENT_ID: LOOT.appId,
      LOOTABLY_POSTBACK_SECRET: LOOT.secret,
      LOOTABLY_ALLOWED_IPS: PROVIDER_IP,
    });
  });
  afterAll(() => wh?.stop());

  it.each([
    ['cpx', { CPX_APP_ID: '1', CPX_SECURE_HASH: 'h' }, /CPX_ALLOWED_IPS is required for a live CPX Research wall/],
    ['rapidoreach', { RAPIDOREACH_APP_ID: 'a', RAPIDOREACH_APP_KEY: 'k', RAPIDOREACH_APP_SECRET: 's' }, /RAPIDOREACH_ALLOWED_IPS is required for a live RapidoReach wall/],
    ['lootably', { LOOTABLY_PLACEMENT_ID: 'p', LOOTABLY_POSTBACK_SECRET: 's' }, /LOOTABLY_ALLOWED_IPS is required for a live Lootably wall/],
  ])('a live %s wall without its allow-list does not start', async (_wall, env, message) => {
    await expect(startWebhooksUnderTest({ OFFERWALLS_SANDBOX: 'false', ...env })).rejects.toThrow(message);
  });

  const forgeries: Array<{ wall: 'cpx' | 'rapidoreach'; sign: (pb: EmulatedPostback) => string; forge: (url: string) => string }> = [
    { wall: 'cpx', sign: (pb) => cpxResearch.sign(CPX, pb, `${TEST_PUBLIC_URL}/webhooks/offerwalls/cpx`), forge: (url) => replaceParam(url, 'status', () => '2') },
    {
      wall: 'rapidoreach',
      sign: (pb) => rapidoReach.sign(RR, pb, `${TEST_PUBLIC_URL}/webhooks/offerwalls/rapidoreach`),
      forge: (url) => replaceParam(url, 'currencyAmt', () => '-500'),
    },
  ];

  it.each(forgeries)('$wall: the credit URL turned into a reversal is refused from outside the allow-list, and nothing moves', async ({ wall, sign, forge }) => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId, 'credit', 500);
    const credit = sign(pb);
    expect(await wh.call(credit, { from: PROVIDER_IP })).toEqual({ status: 200, body: '1' });
    const forged = forge(credit);
    // The forged URL still carries a valid signature: only its source address gives it away.
    expect(OFFERWALL_PROVIDERS[wall].read(new Map(new URLSearchParams(forged.split('?')[1]))).action).toBe('reverse');
    expect(await wh.call(forged, { from: ATTACKER_IP })).toEqual({ status: 403, body: 'rejected_ip' });
    expect((await wh.accepted(wall, pb.transactionId)).map((p) => [p.action, p.points])).toEqual([['credit', 500]]);
    expect(
      await wh.db.query(`SELECT status, action FROM webhook_transactions WHERE provider = $1 AND transaction_id = $2 ORDER BY created_at`, [wall, pb.transactionId]),
    ).toEqual([
      { status: 'accepted', action: 'credit' },
      { status: 'rejected_ip', action: null },
    ]);
  });

  it('lootably: the credit URL replayed with new transaction ids is refused from outside the allow-list, and nothing moves', async () => {
    const userId = await wh.registerUser();
    const pb = postbackFor(userId, 'credit', 500);
    const url = lootably.sign(LOOT, pb, `${TEST_PUBLIC_URL}/webhooks/offerwalls/lootably`);
    const minted = Array.from({ length: 5 }, () => `minted-${randomUUID()}`);
    for (const id of minted) {
      expect(await wh.call(replaceParam(url, 'transactionID', () => id), { from: ATTACKER_IP })).toEqual({ status: 403, body: 'rejected_ip' });
    }
    for (const id of minted) expect(await wh.accepted('lootably', id)).toEqual([]);
    expect(await wh.call(url, { from: PROVIDER_IP })).toEqual({ status: 200, body: '1' });
    expect(await wh.accepted('lootably', pb.transactionId)).toHaveLength(1);
  });
});
