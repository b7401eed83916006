import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RetentionSweeper } from '@esim/platform';
import { retentionReplica, TestNamespace, touchedIn } from '@esim/testing';
import type { EsimConfig } from '../config';
import { openEsimSchema } from '../testing/esim-schema';
import { esimRetention } from './esim-retention';

/**
 * esim's retention (docs/accounts.md, "Retention") on its schema, from two replicas at once:
 * finished deliveries and delivered gifts older than TRANSACTION_RETENTION_YEARS go, once; recent
 * ones, a delivery an operator acted on (and its gift), and a gift still owed stay.
 */
describe('esim retention', () => {
  const ns = new TestNamespace();
  let db: DataSource;

  beforeAll(async () => {
    db = await openEsimSchema(ns);
  });
  afterAll(async () => {
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
    const own = new RetentionSweeper(db, ns.schema('esim'), jobs, 3_600_000);
    const replica = await retentionReplica(ns.schema('esim'), jobs);
    const rounds = await Promise.all([own.sweep(), replica.sweeper.sweep()]).finally(() => replica.close());
    expect({ deliveries: touchedIn(rounds, 'deliveries'), gifts: touchedIn(rounds, 'gifts') }).toEqual({ deliveries: 1, gifts: 1 });

    expect(await exists('provisionings', old.delivery)).toBe(false);
    expect(await exists('data_gifts', old.gift)).toBe(false);
    for (const kept of [recent, handled]) {
      expect(await exists('provisionings', kept.delivery)).toBe(true);
      expect(await exists('data_gifts', kept.gift)).toBe(true);
    }
    expect(await exists('data_gifts', owed)).toBe(true);
    expect(await own.sweep()).toMatchObject({ deliveries: 0, gifts: 0 });
  });
});
