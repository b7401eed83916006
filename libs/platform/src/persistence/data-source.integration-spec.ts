import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, Entity, PrimaryGeneratedColumn, QueryRunner } from 'typeorm';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { MigrationTimeoutError, openDataSource } from './data-source';

/** A new schema for one describe's DataSources (pushed to `opened`): dropped, and they closed, after it. */
function freshSchema(prefix: string): { schema: string; opened: DataSource[] } {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const opened: DataSource[] = [];
  afterAll(async () => {
    if (opened[0]) await opened[0].query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(opened.map((ds) => ds.destroy()));
  });
  return { schema, opened };
}

/**
 * Replicas of a service starting together on a schema that has migrations to run: one migrates
 * while the others wait for it. The messaging migrations build an index CONCURRENTLY, which waits
 * for every older snapshot in the database; a replica waiting inside `pg_advisory_lock` held one,
 * so the migrating replica waited for the waiting one and neither ever went on (two replicas of
 * every service in bench/scale-out.mjs hung at start). And two CREATE SCHEMA IF NOT EXISTS at once
 * can both find it missing: the second failed on pg_namespace's unique index.
 */
describe('replicas opening a new schema together', () => {
  const { schema, opened } = freshSchema('replicas');

  it('all open it, with each migration run once', async () => {
    // Settled, not Promise.all: every replica finishes (or fails) before the test ends.
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [] })),
    );
    const replicas = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    opened.push(...replicas);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const runs = await replicas[0].query(`SELECT name, count(*)::int AS n FROM "${schema}".migrations GROUP BY name`);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r: { n: number }) => r.n === 1)).toBe(true);
    const [index] = await replicas[0].query(`SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`, [
      `"${schema}".outbox_events_published`,
    ]);
    expect(index).toEqual({ valid: true });
  }, 60_000);
});

/**
 * A database of the describe block's own (created by the service under test, dropped after), and
 * an admin connection outside it to read Postgres' view of it.
 */
function ownDatabase(prefix: string) {
  const url = new URL(TEST_DATABASE_URL);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  beforeAll(() => admin.connect());
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });
  return { url: url.toString(), name, admin };
}

@Entity({ name: 'things' })
class Thing {
  @PrimaryGeneratedColumn('uuid') id!: string;
}

/**
 * A service's first start on a new database: every statement it sends succeeds. TypeORM, asked
 * nothing, installs the uuid-ossp extension for entities with generated UUIDs, before the
 * service's schema exists, so it failed on every fresh start and left an ERROR in Postgres' log
 * for an operator to puzzle over; the migrations default those columns to gen_random_uuid().
 */
describe('a first start on a new database', () => {
  const { url, name, admin } = ownDatabase('fresh');

  it('creates the database and opens the schema without a failed statement', async () => {
    const ds = await openDataSource({ url, schema: 'svc', entities: [Thing], migrations: [] });
    await ds.destroy();
    // A backend reports its rolled-back transactions when it exits: wait until all have.
    const stats = await waitFor(
      async () => {
        await admin.query('SELECT pg_stat_clear_snapshot()');
        const [row] = (await admin.query('SELECT numbackends, xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1', [name]))
          .rows;
        return row && row.numbackends === 0 && Number(row.xact_commit) > 0 && row;
      },
      { what: `the statistics of ${name}` },
    );
    expect(Number(stats.xact_rollback)).toBe(0);
  }, 60_000);
});

/**
 * A service's pool after a quiet spell keeps DB_POOL_MIN connections and closes the others. A
 * burst after the spell then starts on warm connections: a new one is a new Postgres backend,
 * opened and then loading its catalog caches before its first statement is done.
 */
describe('a pool after a quiet spell', () => {
  let ds: DataSource | undefined;
  // Declared before ownDatabase's: Jest runs afterAll hooks in that order, so the pool closes
  // before its database is dropped.
  afterAll(() => ds?.destroy());
  let gate: Client | undefined;
  afterAll(() => gate?.end());
  const { url, name, admin } = ownDatabase('pool');
  let gatePid = 0;

  /** The pool's connections to the test's own database, as Postgres counts them (the gate's not). */
  const backends = async () =>
    Number(
      (await admin.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, gatePid]))
        .rows[0].n,
    );

  it('keeps DB_POOL_MIN connections open and closes the others', async () => {
    ds = await openDataSource({
      url,
      schema: 'svc',
      entities: [],
      migrations: [],
      poolSize: 5,
      poolMin: 2,
      poolIdleMs: 200,
    });
    // Five statements at once open all five. They wait on a lock the gate holds, so all five are
    // counted while still busy: counted after they had finished, on a busy CI host the idle
    // timeout had already closed some of them before the count was taken.
    gate = new Client({ connectionString: url });
    await gate.connect();
    gatePid = (await gate.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await gate.query('SELECT pg_advisory_lock(1)');
    const five = Promise.all(Array.from({ length: 5 }, () => ds!.query('SELECT pg_advisory_xact_lock_shared(1)')));
    await waitFor(async () => (await backends()) >= 5, { what: 'five connections open at once' });
    expect(await backends()).toBe(5);
    await gate.query('SELECT pg_advisory_unlock(1)');
    await five;
    await gate.end();
    gate = undefined;

    await waitFor(async () => (await backends()) <= 2, { what: 'the connections above DB_POOL_MIN to close' });
    // Well past the idle timeout, the two are still open.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await backends()).toBe(2);
  }, 60_000);
});

/**
 * DB_BACKEND_FLUSH_AFTER_KB: a service's backends ask the kernel to write their data pages out as
 * they go, rather than leave them to its writeback, which otherwise arrives all at once and holds
 * the WAL flushes every answer waits for.
 */
describe('connections that write their pages out as they go', () => {
  const { schema, opened } = freshSchema('flush');

  /** The server's own setting, as a connection without options sees it. */
  const serverSetting = async () => {
    const client = new Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return (await client.query('SHOW backend_flush_after')).rows[0].backend_flush_after as string;
    } finally {
      await client.end();
    }
  };

  it('take backend_flush_after from the setting, on every connection of the pool, and the server\'s at 0', async () => {
    const flushing = await openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [], poolSize: 3, backendFlushAfterKb: 256 });
    opened.push(flushing);
    // Three at once: three connections, each set up alike.
    const seen = await Promise.all([1, 2, 3].map(() => flushing.query('SELECT current_setting($1) AS v, pg_backend_pid() AS pid, pg_sleep(0.05)', ['backend_flush_after'])));
    expect(new Set(seen.map(([row]) => row.pid)).size).toBe(3);
    expect(seen.map(([row]) => row.v)).toEqual(['256kB', '256kB', '256kB']);
    // The search_path set beside it still holds.
    expect((await flushing.query('SELECT current_schema() AS s'))[0].s).toBe(schema);

    const plain = await openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [], backendFlushAfterKb: 0 });
    opened.push(plain);
    expect((await plain.query('SHOW backend_flush_after'))[0].backend_flush_after).toBe(await serverSetting());
  }, 60_000);
});

/**
 * Every service shares one database: the application_name its connections carry is how an operator
 * reading pg_stat_activity tells whose connection it is (a service's own, through
 * ServicePlatformModule: offerwall-credits.integration-spec.ts, a transaction waiting for a lock).
 */
describe('connections that say whose they are', () => {
  const { schema, opened } = freshSchema('named');

  it('carry the service name as application_name, on every connection of the pool', async () => {
    const named = await openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [], poolSize: 2, applicationName: 'rewards' });
    opened.push(named);
    // Two at once: two connections, each named.
    const seen = await Promise.all(
      [1, 2].map(() => named.query('SELECT application_name AS name, pid, pg_sleep(0.05) FROM pg_stat_activity WHERE pid = pg_backend_pid()')),
    );
    expect(new Set(seen.map(([row]) => row.pid)).size).toBe(2);
    expect(seen.map(([row]) => row.name)).toEqual(['rewards', 'rewards']);
  }, 60_000);
});

/**
 * A rolling deploy starts the new release's replicas while the old ones still run: a migration
 * that needs a table's lock can meet an old replica's long transaction on it. Waiting for it
 * without limit held every other query on that table behind the migration's queued lock and ran
 * the start past its probe; the migration now gives up after DB_MIGRATION_LOCK_TIMEOUT_MS, rolled
 * back whole, and the next start applies it.
 */
describe('a start-up migration that meets a lock held elsewhere', () => {
  const { schema, opened } = freshSchema('locked');

  class CreateThings1900000000000 {
    name = 'CreateThings1900000000000';
    async up(q: QueryRunner) {
      await q.query('CREATE TABLE things (id int PRIMARY KEY)');
    }
    async down() {}
  }
  /** Writes a table of its own first, then needs the lock: a half-applied run would leave `notes`. */
  class AlterThings1900000000001 {
    name = 'AlterThings1900000000001';
    async up(q: QueryRunner) {
      await q.query('CREATE TABLE notes (id int PRIMARY KEY)');
      await q.query('ALTER TABLE things ADD COLUMN label text');
    }
    async down() {}
  }
  class SlowBackfill1900000000002 {
    name = 'SlowBackfill1900000000002';
    async up(q: QueryRunner) {
      await q.query('CREATE TABLE backfilled (id int PRIMARY KEY)');
      await q.query('SELECT pg_sleep(5)');
    }
    async down() {}
  }

  const applied = async (ds: DataSource) => (await ds.query(`SELECT name FROM "${schema}".migrations ORDER BY id`)).map((r: { name: string }) => r.name);
  const exists = async (ds: DataSource, table: string) => (await ds.query('SELECT to_regclass($1) AS t', [`"${schema}".${table}`]))[0].t !== null;
  const column = async (ds: DataSource) =>
    (await ds.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'things' AND column_name = 'label'`, [schema]))[0].n;

  it('gives up after the lock timeout with a clear error, applies nothing of that migration, and applies it on the next start', async () => {
    const first = await openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [CreateThings1900000000000] });
    opened.push(first);

    // An old replica's long transaction that has read the table: it holds ACCESS SHARE until it ends.
    const old = new Client({ connectionString: TEST_DATABASE_URL });
    await old.connect();
    await old.query('BEGIN');
    await old.query(`SELECT count(*) FROM "${schema}".things`);

    const started = Date.now();
    const failure = await openDataSource({
      url: TEST_DATABASE_URL,
      schema,
      entities: [],
      migrations: [CreateThings1900000000000, AlterThings1900000000001],
      migrationLockTimeoutMs: 300,
    }).then(
      (ds) => {
        opened.push(ds);
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(MigrationTimeoutError);
    expect((failure as Error).message).toMatch(/waited 300 ms for a lock and gave up \(DB_MIGRATION_LOCK_TIMEOUT_MS\)/);
    // It gave up at its timeout, not when the holder let go.
    expect(Date.now() - started).toBeLessThan(10_000);

    // Nothing of the migration that gave up: not recorded, its first table rolled back with it.
    expect(await applied(first)).toEqual(expect.not.arrayContaining(['AlterThings1900000000001']));
    expect(await exists(first, 'notes')).toBe(false);
    expect(await column(first)).toBe(0);
    // The migration lock was let go: the next start is not held by the one that gave up.
    await old.query('COMMIT');
    await old.end();

    const next = await openDataSource({ url: TEST_DATABASE_URL, schema, entities: [], migrations: [CreateThings1900000000000, AlterThings1900000000001] });
    opened.push(next);
    expect(await applied(next)).toEqual(expect.arrayContaining(['CreateThings1900000000000', 'AlterThings1900000000001']));
    expect(await exists(next, 'notes')).toBe(true);
    expect(await column(next)).toBe(1);
    // The pool's connections carry no migration timeout afterwards.
    expect((await next.query('SHOW lock_timeout'))[0].lock_timeout).toBe('0');
  }, 60_000);

  it('cancels a statement that runs past the statement timeout, and applies nothing of it', async () => {
    const failure = await openDataSource({
      url: TEST_DATABASE_URL,
      schema,
      entities: [],
      migrations: [CreateThings1900000000000, AlterThings1900000000001, SlowBackfill1900000000002],
      migrationStatementTimeoutMs: 300,
    }).then(
      (ds) => {
        opened.push(ds);
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(MigrationTimeoutError);
    expect((failure as Error).message).toMatch(/ran longer than 300 ms and was cancelled \(DB_MIGRATION_STATEMENT_TIMEOUT_MS\)/);
    expect(await exists(opened[0], 'backfilled')).toBe(false);
    expect(await applied(opened[0])).toEqual(expect.not.arrayContaining(['SlowBackfill1900000000002']));
  }, 60_000);
});
