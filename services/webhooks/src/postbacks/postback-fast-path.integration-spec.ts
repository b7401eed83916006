import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { OFFERWALL_IDS, OfferwallId, UserRegistered } from '@esim/contracts';
import { signedPostbackUrl, startWebhooksUnderTest, TEST_PUBLIC_URL, WebhooksUnderTest } from '../testing/webhooks-harness';

/**
 * The fast path (postback-fast-path.ts) must be invisible: for every kind of GET a provider or an
 * attacker sends, the service answers and records exactly what the usual Express path does. The
 * fast path leaves a GET that carries a body to Express, so the same GET sent with an empty chunked
 * body takes the Express route: two instances of the real service get the same requests, one
 * plain (the fast path), one with that empty body (Express).
 */
describe('plain GET postbacks in front of Express answer and record what the usual path does', () => {
  let fast: WebhooksUnderTest;
  let usual: WebhooksUnderTest;

  beforeAll(async () => {
    [fast, usual] = await Promise.all([startWebhooksUnderTest(), startWebhooksUnderTest()]);
  });
  afterAll(() => Promise.all([fast?.stop(), usual?.stop()]));

  /** What a provider sees, and what an operator sees in webhook_transactions. */
  async function observe(wh: WebhooksUnderTest, target: string, headers: Record<string, string>) {
    // Express adds an ETag, the fast path does not (the last test): the rest must be the same.
    const { etag: _etag, ...answer } = wh === usual ? await viaExpress(wh, target, headers) : await viaFastPath(wh, target, headers);
    const rows: Array<Record<string, unknown>> = await wh.db.query(
      `SELECT provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip FROM webhook_transactions
        WHERE raw_payload->>'url' = $1 ORDER BY created_at`,
      [`${TEST_PUBLIC_URL}${target}`],
    );
    // The differences between the two instances: the port each listens on, and the empty body.
    for (const r of rows) {
      const stored = r.raw_payload as { headers: Record<string, string> };
      stored.headers.host = '<host>';
      delete stored.headers['transfer-encoding'];
    }
    return { answer, rows };
  }

  /** A GET as a provider sends it; with an empty chunked body, the fast path leaves it to Express. */
  const get = (wh: WebhooksUnderTest, target: string, headers: Record<string, string>, emptyBody: boolean) =>
    new Promise<{ status: number; type: string | null; body: string; etag: boolean }>((resolve, reject) => {
      const req = http.request(`${wh.origin}${target}`, { method: 'GET', headers: emptyBody ? { ...headers, 'transfer-encoding': 'chunked' } : headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, body, etag: res.headers.etag !== undefined }));
      });
      req.on('error', reject);
      req.end();
    });
  const viaFastPath = (wh: WebhooksUnderTest, target: string, headers: Record<string, string>) => get(wh, target, headers, false);
  const viaExpress = (wh: WebhooksUnderTest, target: string, headers: Record<string, string>) => get(wh, target, headers, true);

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

  it('leaves POSTs and unknown walls to Express', async () => {
    for (const wh of [fast, usual]) {
      expect((await fetch(`${wh.origin}/webhooks/offerwalls/nope?a=1`)).status).toBe(404);
      const post = await fetch(`${wh.origin}/webhooks/offerwalls/cpx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
      expect({ status: post.status, body: await post.text() }).toEqual({ status: 400, body: 'rejected_invalid' });
    }
  });

  it('is the path plain GETs take (Express adds an ETag to its answers, the fast path does not)', async () => {
    const fastAnswer = await viaFastPath(fast, pathOf('cpx', await fast.registerUser(), `tx-${randomUUID()}`), {});
    const expressAnswer = await viaExpress(usual, pathOf('cpx', await usual.registerUser(), `tx-${randomUUID()}`), {});
    expect([fastAnswer.status, fastAnswer.etag]).toEqual([200, false]);
    expect([expressAnswer.status, expressAnswer.etag]).toEqual([200, true]);
  });
});
