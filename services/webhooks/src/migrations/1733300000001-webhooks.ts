import { MigrationInterface, QueryRunner } from 'typeorm';

/** The same lock as rewards' hand-over migration (1733300000000-webhook-transactions-moved there). */
const HANDOVER_LOCK = 'webhook_transactions handover';

/**
 * The ingestion service's tables. `webhook_transactions`: every provider callback with its raw
 * payload, source address and outcome; at most one accepted credit and one accepted reversal per
 * (provider, transaction id). `registered_users`: who may earn (from identity's events).
 *
 * The records came from rewards, which kept them before this service existed: its hand-over
 * migration keeps them in its own schema, and the administrator's roles step
 * (services/rewards/src/webhook-transactions-handover) moves them into this one as
 * `rewards_webhook_transactions` and `rewards_users`; `import_rewards_handover()` takes them in —
 * here, or from that step when this one ran first. Both take the same advisory lock, so neither
 * misses the other's work.
 */
export class Webhooks1733300000001 implements MigrationInterface {
  name = 'Webhooks1733300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [HANDOVER_LOCK]);
    await q.query(`
      CREATE TABLE webhook_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        transaction_id text,
        action text CHECK (action IN ('credit', 'reverse')),
        user_id uuid,
        status text NOT NULL CHECK (status IN (
          'accepted', 'duplicate', 'ignored', 'rejected_disabled', 'rejected_ip', 'rejected_signature',
          'rejected_invalid', 'rejected_amount', 'rejected_unknown_user', 'rejected_unknown_transaction')),
        amount_mb integer,
        raw_payload jsonb NOT NULL,
        source_ip text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_transactions_accepted_whole CHECK (action IS NULL OR (transaction_id IS NOT NULL AND user_id IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_transactions_accepted_once ON webhook_transactions (provider, transaction_id, action) WHERE action IS NOT NULL`,
    );
    await q.query('CREATE INDEX webhook_transactions_by_user ON webhook_transactions (user_id) WHERE user_id IS NOT NULL');

    await q.query(`
      CREATE TABLE registered_users (
        user_id uuid PRIMARY KEY,
        registered_at timestamptz,
        deleted_at timestamptz
      )`);

    // search_path FROM CURRENT: the function reads this schema's tables whoever calls it.
    await q.query(`
      CREATE FUNCTION import_rewards_handover() RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF to_regclass('rewards_webhook_transactions') IS NOT NULL THEN
          INSERT INTO webhook_transactions (id, provider, transaction_id, action, user_id, status, amount_mb, raw_payload, source_ip, processed_at, created_at)
            SELECT id, provider, transaction_id,
                   CASE status WHEN 'credited' THEN 'credit' WHEN 'reversed' THEN 'reverse' END,
                   user_id,
                   CASE WHEN status IN ('credited', 'reversed') THEN 'accepted' ELSE status END,
                   amount_mb, raw_payload, source_ip, processed_at, created_at
              FROM rewards_webhook_transactions
            ON CONFLICT DO NOTHING;
          DROP TABLE rewards_webhook_transactions;
        END IF;
        IF to_regclass('rewards_users') IS NOT NULL THEN
          INSERT INTO registered_users (user_id, registered_at, deleted_at)
            SELECT user_id, registered_at, deleted_at FROM rewards_users
            ON CONFLICT DO NOTHING;
          DROP TABLE rewards_users;
        END IF;
      END $$`);
    await q.query('SELECT import_rewards_handover()');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION import_rewards_handover()');
    await q.query('DROP TABLE registered_users');
    await q.query('DROP TABLE webhook_transactions');
  }
}
