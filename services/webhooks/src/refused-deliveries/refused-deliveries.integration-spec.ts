import { randomUUID } from 'node:crypto';
import type { Counter } from 'prom-client';
import { Metrics } from '@esim/platform';
import { signedPostbackUrl, startWebhooksUnderTest, TEST_PUBLIC_URL, WebhooksUnderTest } from '../testing/webhooks-harness';
import { REFUSED_PART_CHARS } from './bounded-payload';
import { RefusedDeliveriesPruner } from './refused-deliveries-pruner.service';
import { refusalKey } from './refused-delivery-gate.service';

const PER_MINUTE = 40;
const ATTACKER = '203.0.113.77';

/** Runs `task` for 0…n-1, `width` at a time. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await task(next++);
  }));
}

describe('refused deliveries are bounded: truncated, limited per address, pruned', () => {
  let wh: WebhooksUnderTest;

  beforeAll(async () => {
    wh = await startWebhooksUnderTest({ REFUSED_DELIVERIES_PER_MINUTE: String(PER_MINUTE), REFUSED_DELIVERY_RETENTION_HOURS: '24' });
  });
  afterAll(() => wh?.stop());

  const refusedCount = (recorded: 'true' | 'false') =>
    (wh.app.get(Metrics).registry.getSingleMetric('refused_deliveries_total') as Counter<string>)
      .get()
      .then((m) => m.values.filter((v) => v.labels.recorded === recorded && v.labels.provider === 'cpx').reduce((sum, v) => sum + v.value, 0));

  it('1,000 badly signed requests with 11 KB of headers from one address store a bounded few, answered all the same', async () => {
    const userId = await wh.registerUser();
    const padding = 'x'.repeat(11 * 1024);
    const [recordedBefore, unrecordedBefore] = [await refusedCount('true'), await refusedCount('false')];
    const answers = new Map<string, number>();
    await inParallel(1000, 20, async () => {
      const url = signedPostbackUrl('cpx', { userId, transactionId: `forged-${randomUUID()}`, action: 'credit', offer: { id: 'o', name: 'Survey', category: 'survey', points: 500 }, userIp: ATTACKER });
      const res = await fetch(`${wh.origin}${url.slice(TEST_PUBLIC_URL.length).replace(/secure_hash=[^&]*/, 'secure_hash=bad')}`, {
        headers: { 'x-forwarded-for': ATTACKER, 'x-padding': padding },
      });
      const key = `${res.status} ${await res.text()}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    });
    expect(Object.fromEntries(answers)).toEqual({ '403 rejected_signature': 1000 });

    const [stored] = await wh.db.query(
      `SELECT count(*)::int AS rows, coalesce(sum(pg_column_size(w.*)), 0)::int AS bytes, bool_and((raw_payload->>'truncated')::boolean) AS truncated,
              max(length(raw_payload->'headers'->>'x-padding')) AS padding
         FROM webhook_transactions w WHERE source_ip = $1`,
      [ATTACKER],
    );
    expect(stored.rows).toBe(PER_MINUTE);
    expect(stored.truncated).toBe(true);
    expect(stored.padding).toBeLessThanOrEqual(256);
    // Each row a few kilobytes at most, whatever the request carried (11 KB of headers alone before).
    expect(stored.bytes).toBeLessThan(PER_MINUTE * 4 * REFUSED_PART_CHARS);
    expect((await refusedCount('true')) - recordedBefore).toBe(PER_MINUTE);
    expect((await refusedCount('false')) - unrecordedBefore).toBe(1000 - PER_MINUTE);

    // The limit is per address: another one's refusal is recorded, and the limited address's genuine postback is accepted.
    const other = signedPostbackUrl('cpx', { userId, transactionId: `other-${randomUUID()}`, action: 'credit', offer: { id: 'o', name: 'Survey', category: 'survey', points: 5 }, userIp: ATTACKER });
    expect(await wh.call(other.replace(/secure_hash=[^&]*/, 'secure_hash=bad'), { from: '198.51.100.200' })).toEqual({ status: 403, body: 'rejected_signature' });
    expect(await wh.db.query(`SELECT status FROM webhook_transactions WHERE source_ip = '198.51.100.200'`)).toEqual([{ status: 'rejected_signature' }]);
    const genuine = signedPostbackUrl('cpx', { userId, transactionId: `genuine-${randomUUID()}`, action: 'credit', offer: { id: 'o', name: 'Survey', category: 'survey', points: 5 }, userIp: ATTACKER });
    expect(await wh.call(genuine, { from: ATTACKER })).toEqual({ status: 200, body: '1' });
  });

  it('counts an IPv6 address against its /64', () => {
    expect(refusalKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(refusalKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(refusalKey('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(refusalKey('::1')).toBe('0:0:0:0::/64');
    expect(refusalKey('198.51.100.7')).toBe('198.51.100.7');
  });

  it('prunes refused deliveries past the retention window, keeping accepted ones and everything younger; two replicas at once', async () => {
    const userId = await wh.registerUser();
    const tag = `prune-${randomUUID()}`;
    const offer = { id: 'o', name: 'Survey', category: 'survey' as const, points: 5 };
    const send = (txn: string, bad: boolean, from: string) => {
      const url = signedPostbackUrl('cpx', { userId, transactionId: txn, action: 'credit', offer, userIp: from });
      return wh.call(bad ? url.replace(/secure_hash=[^&]*/, 'secure_hash=bad') : url, { from });
    };
    // Refusals from many addresses (each under its limit), an accepted credit and its duplicate.
    for (let i = 0; i < 30; i++) expect((await send(`${tag}-bad-${i}`, true, `192.0.2.${i + 1}`)).status).toBe(403);
    expect((await send(`${tag}-good`, false, '192.0.2.200')).status).toBe(200);
    expect((await send(`${tag}-good`, false, '192.0.2.200')).status).toBe(200);
    // Everything of this test arrived 25 hours ago, but the last ten refusals.
    await wh.db.query(`UPDATE webhook_transactions SET created_at = now() - interval '25 hours' WHERE transaction_id LIKE $1`, [`${tag}-%`]);
    await wh.db.query(
      `UPDATE webhook_transactions SET created_at = now() WHERE transaction_id = ANY($1)`,
      [Array.from({ length: 10 }, (_, i) => `${tag}-bad-${20 + i}`)],
    );

    const replica = wh.app.get(RefusedDeliveriesPruner);
    // A second replica: its own pruner on the same database, pruning at the same moment.
    const second = new RefusedDeliveriesPruner(wh.db, { REFUSED_DELIVERY_RETENTION_HOURS: 24 } as never, new Metrics('webhooks', { processMetrics: false }));
    const [a, b] = await Promise.all([replica.prune(), second.prune()]);
    expect(a + b).toBeGreaterThanOrEqual(20);

    const left: Array<{ transaction_id: string; status: string }> = await wh.db.query(
      `SELECT transaction_id, status FROM webhook_transactions WHERE transaction_id LIKE $1 ORDER BY transaction_id, status`,
      [`${tag}-%`],
    );
    expect(left.filter((r) => r.status === 'rejected_signature').map((r) => r.transaction_id).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `${tag}-bad-${20 + i}`).sort(),
    );
    expect(left.filter((r) => r.transaction_id === `${tag}-good`).map((r) => r.status).sort()).toEqual(['accepted', 'duplicate']);
    const [{ old }] = await wh.db.query(
      `SELECT count(*)::int AS old FROM webhook_transactions WHERE action IS NULL AND status LIKE 'rejected%' AND created_at < now() - interval '24 hours'`,
    );
    expect(old).toBe(0);
  });
});
