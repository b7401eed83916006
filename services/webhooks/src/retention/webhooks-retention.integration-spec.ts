import { DataSource } from 'typeorm';
import { CONFIG, RetentionSweeper } from '@esim/platform';
import { TEST_DATABASE_URL } from '@esim/testing';
import type { WebhooksConfig } from '../config';
import { startWebhooksUnderTest, WebhooksUnderTest } from '../testing/webhooks-harness';
import { webhooksRetention } from './webhooks-retention';

/**
 * The ingestion service's retention jobs (docs/accounts.md, "Retention") on its real schema, run by
 * the service's own sweeper and by a second replica's at the same time: each record is erased or
 * deleted once, at its age, and a run again changes nothing.
 */
describe('webhooks retention', () => {
  let svc: WebhooksUnderTest;
  let replica: DataSource;

  beforeAll(async () => {
    // The sweep at start-up would find nothing yet; the test runs the jobs itself.
    svc = await startWebhooksUnderTest({ RETENTION_SWEEP_MS: '3600000' });
    const schema = svc.ns.schema('webhooks');
    replica = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { options: `-c search_path=${schema}` } }).initialize();
  });
  afterAll(async () => {
    await replica?.destroy();
    await svc?.stop();
  });

  const record = (age: string, payload: object) =>
    svc.db.query(
      `INSERT INTO webhook_transactions (provider, transaction_id, status, raw_payload, source_ip, created_at)
       VALUES ('cpx', gen_random_uuid()::text, 'ignored', $1::jsonb, '198.51.100.4', now() - $2::interval) RETURNING id`,
      [JSON.stringify(payload), age],
    );

  it('erases payloads after 90 days, source addresses after 2 years, deletes records after 7 years: once, across two replicas', async () => {
    const [[fresh], [old], [older], [oldest]] = await Promise.all([
      record('1 day', { ip: '198.51.100.4' }),
      record('91 days', { ip: '198.51.100.4' }),
      record('3 years', { ip: '198.51.100.4' }),
      record('8 years', { ip: '198.51.100.4' }),
    ]);
    const config = svc.app.get<WebhooksConfig>(CONFIG);
    const schema = svc.ns.schema('webhooks');
    const [a, b] = await Promise.all([svc.app.get(RetentionSweeper).sweep(), new RetentionSweeper(replica, schema, webhooksRetention(config), 3_600_000).sweep()]);
    const total = (job: string) => (a[job] ?? 0) + (b[job] ?? 0);
    expect({ payloads: total('provider-payloads'), addresses: total('source-addresses'), records: total('delivery-records') }).toEqual({ payloads: 2, addresses: 1, records: 1 });

    const rows: Array<{ id: string; raw_payload: unknown; source_ip: string }> = await svc.db.query('SELECT id, raw_payload, source_ip FROM webhook_transactions WHERE id = ANY($1)', [
      [fresh.id, old.id, older.id, oldest.id],
    ]);
    const byId = new Map(rows.map((r) => [r.id, { payload: r.raw_payload, ip: r.source_ip }]));
    expect(byId.get(fresh.id)).toEqual({ payload: { ip: '198.51.100.4' }, ip: '198.51.100.4' });
    expect(byId.get(old.id)).toEqual({ payload: { erased: 'retention' }, ip: '198.51.100.4' });
    expect(byId.get(older.id)).toEqual({ payload: { erased: 'retention' }, ip: 'erased' });
    expect(byId.has(oldest.id)).toBe(false);

    expect(await svc.app.get(RetentionSweeper).sweep()).toMatchObject({ 'provider-payloads': 0, 'source-addresses': 0, 'delivery-records': 0 });
  });
});
