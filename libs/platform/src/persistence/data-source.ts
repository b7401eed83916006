import { setTimeout as sleep } from 'node:timers/promises';
import type { VerifiedTls } from '../config/backing-services';
import { Client } from 'pg';
import { DataSource, EntitySchema, MigrationExecutor, MixedList, QueryRunner } from 'typeorm';
import { MESSAGING_MIGRATIONS } from './messaging-tables.migration';
import { OutboxEventEntity } from '../messaging/outbox-event.entity';
import { InboxEventEntity } from '../messaging/inbox-event.entity';
import { isDatabaseUnreachable, PG_ERROR, postgresError } from './postgres-errors';

export interface PersistenceOptions {
  url: string;
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  poolSize?: number;
  /** Connections kept open however long they sit unused (DB_POOL_MIN); the others close after `poolIdleMs`. */
  poolMin?: number;
  /** How long a connection above `poolMin` stays open unused (pg's default: 10 s). */
  poolIdleMs?: number;
  /** Postgres' backend_flush_after for these connections, in kB (DB_BACKEND_FLUSH_AFTER_KB); unset or 0: the server's setting. */
  backendFlushAfterKb?: number;
  /**
   * Postgres' application_name of these connections: the service's name, so that an operator
   * reading pg_stat_activity (or the server's log, where log_line_prefix has %a) sees whose
   * connection it is; every service shares one database. An application_name in the URL wins.
   */
  applicationName?: string;
  /**
   * Postgres' lock_timeout for the start-up migrations, in ms (DB_MIGRATION_LOCK_TIMEOUT_MS): a
   * migration that waits longer for a table's lock (a long transaction of a replica still running
   * the previous release) gives up with MigrationTimeoutError instead of queueing every query on
   * that table behind its own wait. Default 10 s; 0 waits forever (Postgres' default).
   */
  migrationLockTimeoutMs?: number;
  /** Postgres' statement_timeout for the start-up migrations, in ms (DB_MIGRATION_STATEMENT_TIMEOUT_MS). Default 60 s; 0: none. */
  migrationStatementTimeoutMs?: number;
  /** TLS to Postgres, verified (DB_TLS, postgresTls in config/backing-services.ts); undefined: plain. */
  ssl?: VerifiedTls;
  /** Told each time the database cannot be reached yet at start (the default logs nothing; the platform module logs). */
  onWait?: (what: string, err: Error, retryInMs: number) => void;
}

/** Waits between attempts to reach a server at start: doubling from the first, never above the last. */
export const START_RETRY_MS = { first: 250, max: 5_000 } as const;

/**
 * Runs `attempt` until it stops failing because the server is unreachable (isDatabaseUnreachable),
 * waiting longer each time: a service started before its database (a reboot, `npm start` while
 * Postgres comes up, a database restarting) waits for it instead of exiting, and stays not ready
 * meanwhile. Any other failure (wrong password, a broken migration) ends the start as before.
 * Hand-written: it is one loop over the platform's own notion of "unreachable", which a retry
 * library would need wrapped around it all the same.
 */
export async function untilReachable<T>(what: string, attempt: () => Promise<T>, onWait?: PersistenceOptions['onWait']): Promise<T> {
  for (let waitMs: number = START_RETRY_MS.first; ; waitMs = Math.min(waitMs * 2, START_RETRY_MS.max)) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDatabaseUnreachable(err)) throw err;
      onWait?.(what, err as Error, waitMs);
      await sleep(waitMs);
    }
  }
}

/** The URL without its password, for logs. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

/** Creates the database named in the URL when it does not exist yet (first start on a fresh machine). */
export async function ensureDatabase(url: string, ssl?: VerifiedTls): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const probe = new Client({ connectionString: url, ssl });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if (postgresError(err).code !== PG_ERROR.invalidCatalogName) throw err; // the database does not exist
  } finally {
    await probe.end().catch(() => undefined);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), ssl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    const { code } = postgresError(err);
    // Several services start at once; losing the race is fine.
    if (code !== PG_ERROR.duplicateDatabase && code !== PG_ERROR.uniqueViolation) throw err;
  } finally {
    await client.end();
  }
}

export function createDataSource(opts: PersistenceOptions): DataSource {
  const poolSize = opts.poolSize ?? 10;
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    ssl: opts.ssl,
    schema: opts.schema,
    entities: [...(opts.entities as unknown[]), OutboxEventEntity, InboxEventEntity] as PersistenceOptions['entities'],
    migrations: [...MESSAGING_MIGRATIONS, ...opts.migrations],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // The migrations give every generated UUID its default (gen_random_uuid(), built into
    // Postgres, or rewards' own uuid_v7()), and TypeORM inserts DEFAULT for it. Left on,
    // TypeORM installs uuid-ossp for them on every start: on a first one before the service's
    // schema exists, which fails (data-source.integration-spec.ts), and after that into whichever
    // service's schema comes first, an extension nothing uses.
    installExtensions: false,
    applicationName: opts.applicationName,
    extra: {
      max: poolSize,
      min: Math.min(opts.poolMin ?? 0, poolSize),
      // pg-pool takes its default (10 s) when this is undefined.
      idleTimeoutMillis: opts.poolIdleMs,
      // Unqualified names in hand-written migrations and queries resolve to the service's own schema.
      options: `-c search_path=${opts.schema}${opts.backendFlushAfterKb ? ` -c backend_flush_after=${opts.backendFlushAfterKb}kB` : ''}`,
    },
  });
}

/**
 * The schema's migration lock, tried every LOCK_RETRY_MS rather than waited for in
 * `pg_advisory_lock`: a statement waiting there holds a snapshot for as long as it waits, and a
 * migration that builds an index CONCURRENTLY (messaging-tables.migration.ts) waits for every older
 * snapshot in the database, so the replica migrating waited for the replica waiting for it, and
 * neither went on (data-source.integration-spec.ts). Between tries the connection holds none.
 */
const LOCK_RETRY_MS = 100;
async function takeMigrationLock(runner: QueryRunner, key: string): Promise<void> {
  for (;;) {
    const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
    if (locked) return;
    await sleep(LOCK_RETRY_MS);
  }
}

/** The defaults of the migration timeouts (PersistenceOptions, DB_MIGRATION_*_TIMEOUT_MS). */
export const MIGRATION_TIMEOUT_MS = { lock: 10_000, statement: 60_000 } as const;

/**
 * A start-up migration that waited longer than its lock_timeout or ran longer than its
 * statement_timeout: its transaction rolled back (a migration with `transaction = false` is
 * written to be re-run), the ones before it stay applied, and the service stops with this message
 * (exit 1, runService) to be restarted and try again.
 */
export class MigrationTimeoutError extends Error {
  constructor(schema: string, what: 'lock' | 'statement', limitMs: number, cause: unknown) {
    const message =
      what === 'lock'
        ? `a migration of schema ${schema} waited ${limitMs} ms for a lock and gave up (DB_MIGRATION_LOCK_TIMEOUT_MS): another session holds a lock on a table it changes (see pg_locks / pg_stat_activity); nothing of that migration was applied, the service will try again when restarted`
        : `a migration of schema ${schema} ran longer than ${limitMs} ms and was cancelled (DB_MIGRATION_STATEMENT_TIMEOUT_MS): nothing of that migration was applied; move long backfills out of start-up (docs/operations.md, "Schema changes during a rolling deploy")`;
    super(message, { cause });
    this.name = 'MigrationTimeoutError';
  }
}

/** Runs the pending migrations on `runner`, whose session carries the timeouts, one transaction each. */
async function runMigrationsWithTimeouts(ds: DataSource, runner: QueryRunner, opts: PersistenceOptions): Promise<void> {
  const lockMs = opts.migrationLockTimeoutMs ?? MIGRATION_TIMEOUT_MS.lock;
  const statementMs = opts.migrationStatementTimeoutMs ?? MIGRATION_TIMEOUT_MS.statement;
  // Session settings (not SET LOCAL): they hold for every migration's transaction on this connection,
  // and are reset below before the connection goes back to the pool.
  await runner.query(`SET lock_timeout = ${Math.trunc(lockMs)}`);
  await runner.query(`SET statement_timeout = ${Math.trunc(statementMs)}`);
  try {
    const executor = new MigrationExecutor(ds, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } catch (err) {
    const { code } = postgresError(err);
    if (code === PG_ERROR.lockNotAvailable) throw new MigrationTimeoutError(opts.schema, 'lock', lockMs, err);
    if (code === PG_ERROR.queryCanceled) throw new MigrationTimeoutError(opts.schema, 'statement', statementMs, err);
    throw err;
  } finally {
    await runner.query('RESET lock_timeout').catch(() => undefined);
    await runner.query('RESET statement_timeout').catch(() => undefined);
  }
}

/**
 * Opens the service's DataSource: database created if missing, then schema and migrations under
 * an advisory lock so that replicas starting together do not race.
 */
export function openDataSource(opts: PersistenceOptions): Promise<DataSource> {
  return untilReachable(`Postgres (${describeUrl(opts.url)})`, () => openOnce(opts), opts.onWait);
}

async function openOnce(opts: PersistenceOptions): Promise<DataSource> {
  await ensureDatabase(opts.url, opts.ssl);
  const ds = createDataSource(opts);
  try {
    await ds.initialize();
  } catch (err) {
    // The pool TypeORM made before its first query failed: close it, or each retry leaves one behind.
    await ds.driver.disconnect().catch(() => undefined);
    throw err;
  }
  const runner = ds.createQueryRunner();
  try {
    await runner.connect();
    await takeMigrationLock(runner, `migrations:${opts.schema}`);
    try {
      // Under the lock too: two CREATE SCHEMA IF NOT EXISTS at once can both find it missing, and
      // the second fails on pg_namespace's unique index (data-source.integration-spec.ts). Only
      // when missing: Postgres checks the right to create schemas before it looks, and a service's
      // own role (service-roles.ts) has its schema made for it and no such right.
      const [{ present }] = await runner.query('SELECT to_regnamespace($1) IS NOT NULL AS present', [opts.schema]);
      if (!present) await runner.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
      await runMigrationsWithTimeouts(ds, runner, opts);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${opts.schema}`]);
    }
  } catch (err) {
    await runner.release().catch(() => undefined);
    await ds.destroy().catch(() => undefined);
    throw err;
  }
  await runner.release();
  return ds;
}
