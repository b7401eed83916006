import { MigrationInterface } from 'typeorm';
import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { ledgerMigrationsThrough } from '../migrations/ledger-migrations';

/**
 * For the spec of one of the ledger's migrations: a rewards schema of its own, migrated through
 * `last` before the file's tests (`schema.db`), dropped after them. Call it inside `describe`.
 */
export function migratedLedger(last: new () => MigrationInterface): { db: DataSource } {
  const ns = new TestNamespace();
  const schema = { db: undefined as unknown as DataSource };
  beforeAll(async () => {
    schema.db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('rewards'),
      entities: [],
      migrations: ledgerMigrationsThrough(last),
    });
  });
  afterAll(async () => {
    if (schema.db?.isInitialized) await schema.db.destroy();
    await ns.cleanup();
  });
  return schema;
}

/** What a refused statement threw, as the specs compare it (message, SQLSTATE, constraint); undefined if it went through. */
export const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: Error & { code?: string; constraint?: string }) => ({ message: err.message, code: err.code, constraint: err.constraint }),
  );

/**
 * The columns later migrations add to tasks and Tasks writes (kind, migration 1736400000066), for
 * the spec of an earlier migration that writes through Tasks on a schema that stops before them.
 */
export const addLaterTaskColumns = (db: DataSource) => db.query('ALTER TABLE tasks ADD COLUMN IF NOT EXISTS kind text');
