import { MigrationInterface, QueryRunner } from 'typeorm';

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

/** The migrations of the messaging tables, in order; every service's DataSource runs them first. */
export const MESSAGING_MIGRATIONS = [MessagingTables1732060800000, ParkedOutboxEvents1732060800001, OutboxEventHeaders1732060800002];
