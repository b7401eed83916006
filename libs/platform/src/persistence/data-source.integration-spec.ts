import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@esim/testing';
import { openDataSource } from './data-source';

/**
 * Replicas of a service starting together on a schema that has migrations to run: one migrates
 * while the others wait for it. The messaging migrations build an index CONCURRENTLY, which waits
 * for every older snapshot in the database; a replica waiting inside `pg_advisory_lock` held one,
 * so the migrating replica waited for the waiting one and neither ever went on (two replicas of
 * every service in bench/scale-out.mjs hung at start). And two CREATE SCHEMA IF NOT EXISTS at once
 * can both find it missing: the second failed on pg_namespace's unique index.
 */
describe('replicas opening a new schema together', () => {
  const schema = `replicas_${randomBytes(4).toString('hex')}`;
  const opened: DataSource[] = [];

  afterAll(async () => {
    if (opened[0]) await opened[0].query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(opened.map((ds) => ds.destroy()));
  });

  it('all open it, with each migration run once', async () => {
    // Settled, not Promise.all: every replica finishes (or fails) before the test ends.
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [] })));
    const replicas = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    opened.push(...replicas);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const runs = await replicas[0].query(`SELECT name, count(*)::int AS n FROM "${schema}".migrations GROUP BY name`);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r: { n: number }) => r.n === 1)).toBe(true);
    const [index] = await replicas[0].query(
      `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
      [`"${schema}".outbox_events_published`],
    );
    expect(index).toEqual({ valid: true });
  }, 60_000);
});
