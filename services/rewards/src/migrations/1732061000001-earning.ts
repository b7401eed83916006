import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Offer-wall earning. `webhook_transactions` keeps every postback delivery with its raw payload and
 * outcome (an audit log: a duplicate or a forged delivery is a row too). The spec's uniqueness of
 * (provider, transactionId) holds where it matters: at most one `credited` row and one `reversed`
 * row per provider transaction; the ledger's unique references enforce the same on the money.
 * `tasks` is what the user's history lists: one row per credited provider transaction.
 */
export class Earning1732061000001 implements MigrationInterface {
  name = 'Earning1732061000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        task_type text NOT NULL CHECK (task_type IN ('offer_completion', 'app_install', 'ad_view', 'other')),
        points_earned integer NOT NULL CHECK (points_earned > 0),
        provider text NOT NULL,
        transaction_id text NOT NULL,
        ledger_transfer_id uuid NOT NULL UNIQUE REFERENCES ledger_transfers (id),
        completed_at timestamptz NOT NULL DEFAULT now(),
        reversed_at timestamptz,
        CONSTRAINT tasks_one_per_provider_transaction UNIQUE (provider, transaction_id)
      )`);
    await q.query('CREATE INDEX tasks_by_user ON tasks (user_id, completed_at DESC)');

    await q.query(`
      CREATE TABLE webhook_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        transaction_id text,
        user_id uuid,
        status text NOT NULL CHECK (status IN (
          'credited', 'reversed', 'duplicate', 'ignored', 'rejected_disabled', 'rejected_ip', 'rejected_signature',
          'rejected_invalid', 'rejected_amount', 'rejected_unknown_user', 'rejected_unknown_transaction')),
        amount_mb integer,
        raw_payload jsonb NOT NULL,
        source_ip text NOT NULL,
        ledger_transfer_id uuid REFERENCES ledger_transfers (id),
        processed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_transactions_one_credit ON webhook_transactions (provider, transaction_id) WHERE status = 'credited'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX webhook_transactions_one_reversal ON webhook_transactions (provider, transaction_id) WHERE status = 'reversed'`,
    );
    await q.query('CREATE INDEX webhook_transactions_by_transaction ON webhook_transactions (provider, transaction_id, created_at)');
    await q.query('CREATE INDEX webhook_transactions_by_user ON webhook_transactions (user_id) WHERE user_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_transactions');
    await q.query('DROP TABLE tasks');
  }
}
