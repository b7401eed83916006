import { randomUUID } from 'node:crypto';
import { OFFERWALL_IDS, OfferwallId, UserRegistered } from '@esim/contracts';
import { signedPostbackUrl, startWebhooksUnderTest, TEST_PUBLIC_URL, WebhooksUnderTest } from '../testing/webhooks-harness';

/**
 * The fast path (postback-fast-path.ts) must be invisible: for every kind of GET a provider or an
 * attacker sends, the service answers and records exactly what the usual Express path does. Two
 * instances of the real service, one with POSTBACK_FAST_PATH off, get the same requests.
 */
describe('plain GET postbacks in front of Express answer and record what the usual path does', () => {
  let fast: WebhooksUnderTest;
  let usual: WebhooksUnderTest;

  beforeAll(async () => {
    [fast, usual] = await Promise.all([startWebhooksUnderTest(), startWebhooksUnderTest({ POSTBACK_FAST_PATH: 'false' })]);
  });
  afterAll(() => Promise.all([fast?.stop(), usual?.stop()]));

  /** What a provider sees, and what an operator sees in webhook_transactions. */
  async function observe(wh: WebhooksUnderTest, target: string, headers: Record<string, string>) {
    const res = await fetch(`${wh.origin}${target}`, { headers });
    const answer = { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    const rows: Array<Record<string, unknown>> = await wh.db.query(
      `SELECT provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip FROM webhook_transactions
        WHERE raw_payload->>'url' = $1 ORDER BY created_at`,
      [`${TEST_PUBLIC_URL}${target}`],
    );
    // The one difference between the two instances: the port each listens on.
    for (const r of rows) (r.raw_payload as { headers: Record<string, string> }).headers.host = '<host>';
    return { answer, rows };
  }

  const cases: Array<{ name: string; target: (p: OfferwallId, userId: string, txn: string) => string; headers?: Record<string, string> }> = [
    { name: 'a valid credit', target: (p, userId, txn) => pathOf(p, userId, txn) },
    { name: 'a wrong signature', target: (p, userId, txn) => pathOf(p, userId, txn).replace(/([?&](?:secure_hash|hash|txnHash|sig)=)([^&]*)/, '$1bad') },
    { name: 'a repeated parameter', target: (p, userId, txn) => `${pathOf(p, userId, txn)}&${pathOf(p, userId, txn).split('?')[1].split('&')[0]}` },
    { name: 'bad percent-encoding', target: (p, userId, txn) => `${pathOf(p, userId, txn)}&x=%E0%A4%A` },
    { name: 'no query at all', target: (p) => `/webhooks/offerwalls/${p}` },
    { name: 'a source address named by the trusted proxy', target: (p, userId, txn) => pathOf(p, userId, txn), headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' } },
  ];

  const pathOf = (provider: OfferwallId, userId: string, txn: string) =>
    signedPostbackUrl(provider, {
      userId,
      transactionId: txn,
      action: 'credit',
      offer: { id: 'o1', name: 'Survey', category: 'survey', points: 40 },
      userIp: '198.51.100.4',
    }).slice(TEST_PUBLIC_URL.length);

  describe.each(OFFERWALL_IDS)('%s', (provider) => {
    it.each(cases)('$name', async ({ target, headers }) => {
      // The same user and transaction in both instances (each has its own schema), so the same signed URL.
      const userId = randomUUID();
      const path = target(provider, userId, `tx-${randomUUID()}`);
      const seen = [];
      for (const wh of [fast, usual]) {
        const registered = { userId, email: `${userId}@example.test`, name: 'Test', locale: 'en' as const, registeredAt: new Date().toISOString() };
        await wh.applied(await wh.publish(UserRegistered, registered));
        const first = await observe(wh, path, { 'user-agent': 'provider-test', ...headers });
        // A replay, byte for byte, as a retrying provider sends it.
        const replay = await observe(wh, path, { 'user-agent': 'provider-test', ...headers });
        seen.push({ first, replay });
      }
      expect(seen[0]).toEqual(seen[1]);
      expect(seen[0].first.rows.length).toBeGreaterThan(0);
    });
  });

  it('leaves POSTs, unknown walls and GETs with a body to Express', async () => {
    for (const wh of [fast, usual]) {
      expect((await fetch(`${wh.origin}/webhooks/offerwalls/nope?a=1`)).status).toBe(404);
      const post = await fetch(`${wh.origin}/webhooks/offerwalls/cpx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
      expect({ status: post.status, body: await post.text() }).toEqual({ status: 400, body: 'rejected_invalid' });
    }
  });

  it('is the path plain GETs take (Express adds an ETag to its answers, the fast path does not)', async () => {
    const userId = await fast.registerUser();
    const res = await fetch(`${fast.origin}${pathOf('cpx', userId, `tx-${randomUUID()}`)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    const viaExpress = await fetch(`${usual.origin}${pathOf('cpx', await usual.registerUser(), `tx-${randomUUID()}`)}`);
    expect(viaExpress.headers.get('etag')).not.toBeNull();
  });
});
