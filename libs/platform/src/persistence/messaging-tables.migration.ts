import { MigrationInterface, QueryRunner } from 'typeorm';
import { DeletedAccounts1732060800004 } from './deleted-accounts.migration';

/** The outbox and inbox every service keeps in its own schema (see messaging/). */
export class MessagingTables1732060800000 implements MigrationInterface {
  name = 'MessagingTables1732060800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        routing_key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        available_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query(`CREATE INDEX outbox_events_unpublished ON outbox_events (available_at, seq) WHERE published_at IS NULL`);
    await q.query(`
      CREATE TABLE inbox_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE inbox_events');
    await q.query('DROP TABLE outbox_events');
  }
}

/**
 * Parked outbox events: an event no queue is bound to is set aside after a bounded number of
 * tries (`parked_at`), and the relay's index leaves parked rows out, so they cost it nothing.
 */
export class ParkedOutboxEvents1732060800001 implements MigrationInterface {
  name = 'ParkedOutboxEvents1732060800001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox_events ADD COLUMN parked_at timestamptz');
    await q.query('DROP INDEX outbox_events_unpublished');
    await q.query('CREATE INDEX outbox_events_due ON outbox_events (available_at, seq) WHERE published_at IS NULL AND parked_at IS NULL');
    await q.query('CREATE INDEX outbox_events_parked ON outbox_events (parked_at) WHERE parked_at IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX outbox_events_parked');
    await q.query('DROP INDEX outbox_events_due');
    await q.query('CREATE INDEX outbox_events_unpublished ON outbox_events (available_at, seq) WHERE published_at IS NULL');
    await q.query('ALTER TABLE outbox_events DROP COLUMN parked_at');
  }
}

/**
 * The headers an outbox event is published with: the W3C trace context (`traceparent`) of the
 * work that announced it, so that its consumers continue the same trace (docs/observability.md).
 */
export class OutboxEventHeaders1732060800002 implements MigrationInterface {
  name = 'OutboxEventHeaders1732060800002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox_events ADD COLUMN headers jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox_events DROP COLUMN headers');
  }
}

/**
 * Published outbox rows by when they were published, for the relay's prune (OutboxRelay.prune):
 * without it each prune read the whole table to find the rows past the retention. Built
 * concurrently, outside a transaction, so that a service with a day of events in its outbox keeps
 * writing while the index is built; an earlier attempt that failed half-way left an invalid index,
 * which is dropped and built again. Its timestamp files it with the other messaging migrations,
 * before every service's own: on a new schema a service's last migration is still its own, the one
 * its specs undo (`undoLastMigration` takes the last one run). TypeORM runs a pending migration
 * whatever its timestamp, so existing schemas get it too. Its `down` drops the index plainly: TypeORM
 * undoes a migration inside a transaction whatever the migration says.
 */
export class OutboxPublishedIndex1732060800003 implements MigrationInterface {
  name = 'OutboxPublishedIndex1732060800003';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const [left] = await q.query(
      `SELECT NOT i.indisvalid AS invalid FROM pg_index i WHERE i.indexrelid = to_regclass('outbox_events_published')`,
    );
    // A concurrent build waits for every transaction in the database older than it, in any schema,
    // while blocking no reader or writer of the table: the start-up migrations' lock_timeout
    // (DB_MIGRATION_LOCK_TIMEOUT_MS, there so that an ALTER does not queue other queries behind it)
    // would only make it give up because some other service had a long transaction open.
    const [{ lock_timeout: lockTimeout }] = await q.query(`SELECT current_setting('lock_timeout') AS lock_timeout`);
    await q.query('SET lock_timeout = 0');
    try {
      if (left?.invalid) await q.query('DROP INDEX CONCURRENTLY outbox_events_published');
      await q.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_events_published ON outbox_events (published_at) WHERE published_at IS NOT NULL');
    } finally {
      await q.query(`SELECT set_config('lock_timeout', $1, false)`, [lockTimeout]);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS outbox_events_published');
  }
}

/** The migrations of the messaging tables (and of the deleted accounts they guard), in order; every service's DataSource runs them first. */
export const MESSAGING_MIGRATIONS = [
  MessagingTables1732060800000,
  ParkedOutboxEvents1732060800001,
  OutboxEventHeaders1732060800002,
  OutboxPublishedIndex1732060800003,
  DeletedAccounts1732060800004,
];
