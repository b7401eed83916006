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
