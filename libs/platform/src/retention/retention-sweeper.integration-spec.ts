import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@esim/testing';
import { inboxRetention } from './inbox-retention';
import { RetentionJob, RetentionSweeper } from './retention-sweeper';

/** Retention jobs on the real Postgres, from two replicas of one service at once. */
describe('RetentionSweeper', () => {
  const schema = `retention_${randomBytes(4).toString('hex')}`;
  /** Two replicas: two pools on the same schema. */
  let a: DataSource;
  let b: DataSource;
  const open = () => new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, schema, extra: { options: `-c search_path=${schema}` } }).initialize();
  const count = async (sql: string): Promise<number> => Number((await a.query(sql))[0].n);

  beforeAll(async () => {
    a = await open();
    await a.query(`CREATE SCHEMA ${schema}`);
    b = await open();
    await a.query(`CREATE TABLE ${schema}.inbox_events (consumer text NOT NULL, event_id uuid NOT NULL, event_type text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, event_id))`);
    await a.query(`CREATE TABLE ${schema}.runs (n int NOT NULL)`);
    await a.query(`INSERT INTO ${schema}.runs VALUES (0)`);
  });
  afterAll(async () => {
    await a.query(`DROP SCHEMA ${schema} CASCADE`);
    await Promise.all([a.destroy(), b.destroy()]);
  });

  it('prunes inbox rows past the retention, in batches, once across two replicas, and nothing more when run again', async () => {
    await a.query(
      `INSERT INTO ${schema}.inbox_events (consumer, event_id, event_type, processed_at)
       SELECT 'svc', gen_random_uuid(), 'x', now() - interval '31 days' FROM generate_series(1, 2500)`,
    );
    await a.query(`INSERT INTO ${schema}.inbox_events (consumer, event_id, event_type) SELECT 'svc', gen_random_uuid(), 'x' FROM generate_series(1, 10)`);
    const job = inboxRetention(30);
    const [ra, rb] = await Promise.all([new RetentionSweeper(a, schema, [job], 60_000).sweep(), new RetentionSweeper(b, schema, [job], 60_000).sweep()]);
    // One replica pruned all 2500 (three batches); the other found the job taken, or nothing left.
    expect([ra.inbox, rb.inbox].sort()).toEqual(expect.arrayContaining([2500]));
    expect((ra.inbox ?? 0) + (rb.inbox ?? 0)).toBe(2500);
    expect(await count(`SELECT count(*) AS n FROM ${schema}.inbox_events`)).toBe(10);
    expect((await new RetentionSweeper(b, schema, [job], 60_000).sweep()).inbox).toBe(0);
  });

  it('runs a job on one replica at a time: the other, finding its lock taken, skips it', async () => {
    // A job that takes a while and counts its runs.
    const slow: RetentionJob = { name: 'slow', after: '1 day', sql: `UPDATE runs SET n = n + 1 FROM (SELECT pg_sleep(0.5)) s WHERE $1::int > 0 AND $2::interval IS NOT NULL` };
    const [ra, rb] = await Promise.all([new RetentionSweeper(a, schema, [slow], 60_000).sweep(), new RetentionSweeper(b, schema, [slow], 60_000).sweep()]);
    expect([ra.slow, rb.slow].sort()).toEqual([1, null]);
    expect(await count(`SELECT n FROM ${schema}.runs`)).toBe(1);
  });
});
