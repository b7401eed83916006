import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The offer-wall delivery records (`webhook_transactions`) moved to the webhooks service, which now
 * receives the callbacks. Each service connects with a role limited to its own schema
 * (docs/operations.md, "Database roles"), so this migration writes only rewards' schema: on an
 * installation that has records, they and the users rewards knows wait here in
 * `handover_webhook_transactions` and `handover_users`, and the administrator's roles step
 * (scripts/db-roles.mjs, through handOverWebhookTransactions in
 * services/rewards/src/webhook-transactions-handover) moves them to the webhooks schema, whose
 * first migration or `import_rewards_handover()` takes them in. A fresh database has nothing to
 * hand over.
 */
export class WebhookTransactionsMoved1733300000000 implements MigrationInterface {
  name = 'WebhookTransactionsMoved1733300000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ deliveries }] = await q.query('SELECT count(*)::int AS deliveries FROM webhook_transactions');
    const [{ users }] = await q.query('SELECT count(*)::int AS users FROM ledger_accounts WHERE user_id IS NOT NULL');
    if (deliveries > 0 || users > 0) {
      // The columns the webhooks service imports (import_rewards_handover), without the foreign key
      // to the ledger, so the table can leave this schema.
      await q.query(`
        CREATE TABLE handover_webhook_transactions AS
          SELECT id, provider, transaction_id, user_id, status, amount_mb, raw_payload, source_ip, processed_at, created_at
            FROM webhook_transactions`);
      await q.query(`
        CREATE TABLE handover_users AS
          SELECT user_id, created_at AS registered_at, closed_at AS deleted_at FROM ledger_accounts WHERE user_id IS NOT NULL`);
    }
    await q.query('DROP TABLE webhook_transactions');
  }

  async down(q: QueryRunner): Promise<void> {
    // The records stay with the webhooks service; only the empty table comes back.
    await q.query('DROP TABLE IF EXISTS handover_users');
    await q.query('DROP TABLE IF EXISTS handover_webhook_transactions');
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
}
