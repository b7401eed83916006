import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe emulator's state (schema sandbox_stripe): its objects (payment_intent,
 * payment_method, refund, event) as Stripe shapes them, and the answers it gave under an
 * Idempotency-Key. The same tables the emulator had in the payments schema before it moved here.
 */
export class StripeSandbox1737000000001 implements MigrationInterface {
  name = 'StripeSandbox1737000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_stripe_objects (
        id text PRIMARY KEY,
        object text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX sandbox_stripe_objects_by_type ON sandbox_stripe_objects (object, created_at DESC)');
    await q.query(`
      CREATE TABLE sandbox_stripe_idempotency_keys (
        key text PRIMARY KEY,
        fingerprint text NOT NULL,
        http_status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sandbox_stripe_idempotency_keys');
    await q.query('DROP TABLE sandbox_stripe_objects');
  }
}
