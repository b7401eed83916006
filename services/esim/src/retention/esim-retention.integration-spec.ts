import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openDataSource, RetentionSweeper } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import type { EsimConfig } from '../config';
import { DataGifts1732060900000 } from '../migrations/1732060900000-data-gifts';
import { EsimRedemptions1732063000000 } from '../migrations/1732063000000-redemptions';
import { EsimOperatorQueue1734200000000 } from '../migrations/1734200000000-operator-queue';
import { EsimOwnLines1736100000000 } from '../migrations/1736100000000-own-lines';
import { EsimPurchaseProvisionings1737100000000 } from '../migrations/1737100000000-purchase-provisionings';
import { EsimUsageAlerts1738500000000 } from '../migrations/1738500000000-usage-alerts';
import { EsimAutoTopups1738500000002 } from '../migrations/1738500000002-auto-topups';
import { esimRetention } from './esim-retention';

/**
 * esim's retention (docs/accounts.md, "Retention") on its schema, from two replicas at once:
 * finished deliveries and delivered gifts older than TRANSACTION_RETENTION_YEARS go, once; recent
 * ones, a delivery an operator acted on (and its gift), and a gift still owed stay.
 */
describe('esim retention', () => {
  const ns = new TestNamespace();
  let db: DataSource;
  let replica: DataSource;

  beforeAll(async () => {
    const schema = ns.schema('esim');
    db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema,
      entities: [],
      migrations: [
        DataGifts1732060900000,
        EsimRedemptions1732063000000,
        EsimOperatorQueue1734200000000,
        EsimOwnLines1736100000000,
        EsimPurchaseProvisionings1737100000000,
        EsimUsageAlerts1738500000000,
        EsimAutoTopups1738500000002,
      ],
    });
    replica = await new DataSource({
      type: 'postgres',
      url: TEST_DATABASE_URL,
      extra: { options: `-c search_path=${schema}` },
    }).initialize();
  });
  afterAll(async () => {
    await replica?.destroy();
    if (db?.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  /** A gift delivered `age` ago through a points redemption, as the service writes them. */
  const delivered = async (age: string): Promise<{ gift: string; delivery: string }> => {
    const gift = randomUUID();
    await db.query(
      `INSERT INTO data_gifts (id, user_id, amount_gb, plan_tier, iccid, status, delivered_at, source, created_at)
       VALUES ($1, $2, 1, '1GB', '8900000000000000999', 'delivered', now() - $3::interval, 'points', now() - $3::interval)`,
      [gift, randomUUID(), age],
    );
    const [{ id }] = await db.query(
      `INSERT INTO provisionings (redemption_id, user_id, source, kind, plan_tier, amount_gb, country, status, iccid, delivered_gift_id, created_at, completed_at)
       VALUES ($1, $2, 'points', 'new', '1GB', 1, 'BR', 'succeeded', '8900000000000000999', $3, now() - $4::interval, now() - $4::interval) RETURNING id`,
      [randomUUID(), randomUUID(), gift, age],
    );
    return { gift, delivery: id };
  };
  const exists = async (table: string, id: string) => (await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length === 1;

  it('deletes finished deliveries and delivered gifts after 7 years, once across two replicas', async () => {
    const [recent, old, handled] = [await delivered('6 years'), await delivered('8 years'), await delivered('8 years')];
    await db.query(`INSERT INTO provisioning_operator_actions (provisioning_id, action, admin_id) VALUES ($1, 'retry', $2)`, [
      handled.delivery,
      randomUUID(),
    ]);
    const [{ id: owed }] = await db.query(
      `INSERT INTO data_gifts (user_id, amount_gb, plan_tier, status, source, created_at) VALUES ($1, 1, '1GB', 'granted', 'admin', now() - interval '8 years') RETURNING id`,
      [randomUUID()],
    );

    const jobs = esimRetention({ TRANSACTION_RETENTION_YEARS: 7 } as EsimConfig);
    const [a, b] = await Promise.all([
      new RetentionSweeper(db, ns.schema('esim'), jobs, 3_600_000).sweep(),
      new RetentionSweeper(replica, ns.schema('esim'), jobs, 3_600_000).sweep(),
    ]);
    const total = (job: string) => (a[job] ?? 0) + (b[job] ?? 0);
    expect({ deliveries: total('deliveries'), gifts: total('gifts') }).toEqual({ deliveries: 1, gifts: 1 });

    expect(await exists('provisionings', old.delivery)).toBe(false);
    expect(await exists('data_gifts', old.gift)).toBe(false);
    for (const kept of [recent, handled]) {
      expect(await exists('provisionings', kept.delivery)).toBe(true);
      expect(await exists('data_gifts', kept.gift)).toBe(true);
    }
    expect(await exists('data_gifts', owed)).toBe(true);
    expect(await new RetentionSweeper(db, ns.schema('esim'), jobs, 3_600_000).sweep()).toMatchObject({ deliveries: 0, gifts: 0 });
  });
});
