import { MigrationInterface, QueryRunner } from 'typeorm';

/** Taken by this migration and by the webhooks service's first migration: whichever runs second sees the other's work. */
export const HANDOVER_LOCK = 'webhook_transactions handover';

/**
 * The offer-wall delivery records (`webhook_transactions`) moved to the webhooks service, which now
 * receives the callbacks. On an installation that has some, they go to the webhooks schema: straight
 * into its table when that service has migrated already, else into `rewards_webhook_transactions`
 * there, which its first migration imports. The users rewards knows go the same way, so that the
 * webhooks service recognises every registered user. A fresh database has nothing to hand over.
 */
export function webhookTransactionsMoved(webhooksSchema: string) {
  const wh = `"${webhooksSchema}"`;
  return class WebhookTransactionsMoved1733300000000 implements MigrationInterface {
    name = 'WebhookTransactionsMoved1733300000000';

    async up(q: QueryRunner): Promise<void> {
      const [{ deliveries }] = await q.query('SELECT count(*)::int AS deliveries FROM webhook_transactions');
      const [{ users }] = await q.query('SELECT count(*)::int AS users FROM ledger_accounts WHERE user_id IS NOT NULL');
      if (deliveries > 0 || users > 0) {
        await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [HANDOVER_LOCK]);
        await q.query(`CREATE SCHEMA IF NOT EXISTS ${wh}`);
        await q.query(`
          CREATE TABLE IF NOT EXISTS ${wh}.rewards_webhook_transactions AS
            SELECT id, provider, transaction_id, user_id, status, amount_mb, raw_payload, source_ip, processed_at, created_at
              FROM webhook_transactions WITH NO DATA`);
        await q.query(`INSERT INTO ${wh}.rewards_webhook_transactions
            SELECT id, provider, transaction_id, user_id, status, amount_mb, raw_payload, source_ip, processed_at, created_at FROM webhook_transactions`);
        await q.query(`CREATE TABLE IF NOT EXISTS ${wh}.rewards_users (user_id uuid PRIMARY KEY, registered_at timestamptz, deleted_at timestamptz)`);
        await q.query(`INSERT INTO ${wh}.rewards_users SELECT user_id, created_at, closed_at FROM ledger_accounts WHERE user_id IS NOT NULL
            ON CONFLICT DO NOTHING`);
        const [{ migrated }] = await q.query(`SELECT to_regclass($1) IS NOT NULL AS migrated`, [`${wh}.webhook_transactions`]);
        if (migrated) await q.query(`SELECT ${wh}.import_rewards_handover()`);
      }
      await q.query('DROP TABLE webhook_transactions');
    }

    async down(q: QueryRunner): Promise<void> {
      // The records stay with the webhooks service; only the empty table comes back.
      await q.query(`
        CREATE TABLE webhook_transactions (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          provider text NOT NULL,
          transaction_id text,
          user_id uuid,
          status text NOT NULL,
          amount_mb integer,
          raw_payload jsonb NOT NULL,
          source_ip text NOT NULL,
          ledger_transfer_id uuid REFERENCES ledger_transfers (id),
          processed_at timestamptz NOT NULL DEFAULT now(),
          created_at timestamptz NOT NULL DEFAULT now()
        )`);
    }
  };
}
