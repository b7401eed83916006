import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Redemptions paid with points (docs/redemption.md). One row per user + Idempotency-Key: a
 * repeated request finds it and never reserves twice. The row and its ledger reservation
 * (reference = the redemption id) are written in one transaction, and the settlement (post or
 * void) commits with the status change, so the row and the ledger never disagree.
 *
 * The statement indexes let the points statement read one user's transfers newest first.
 */
export class Redemptions1732063000000 implements MigrationInterface {
  name = 'Redemptions1732063000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE redemptions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        idempotency_key text NOT NULL CHECK (idempotency_key ~ '^[A-Za-z0-9_-]{8,128}$'),
        plan_tier text NOT NULL CHECK (plan_tier IN ('1GB', '3GB', '5GB')),
        amount_gb integer NOT NULL CHECK (amount_gb > 0),
        points integer NOT NULL CHECK (points > 0),
        kind text NOT NULL CHECK (kind IN ('new', 'topup')),
        country text,
        target_iccid text,
        reservation_id uuid UNIQUE REFERENCES ledger_transfers (id),
        status text NOT NULL DEFAULT 'processing'
          CHECK (status IN ('processing', 'esim_activation_ready', 'completed', 'manual_transfer_required', 'failed')),
        iccid text,
        lpa_code text,
        msisdn text,
        gift_id uuid,
        provider_transaction_id text,
        failure_reason text,
        failure_message text,
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        CONSTRAINT redemptions_one_per_key UNIQUE (user_id, idempotency_key),
        CONSTRAINT redemptions_target CHECK ((kind = 'new' AND country IS NOT NULL) OR (kind = 'topup' AND target_iccid IS NOT NULL)),
        CONSTRAINT redemptions_settled CHECK ((status IN ('processing', 'manual_transfer_required')) = (settled_at IS NULL))
      )`);
    await q.query('CREATE INDEX redemptions_by_user ON redemptions (user_id, created_at DESC)');
    await q.query(`CREATE INDEX redemptions_open ON redemptions (created_at) WHERE status IN ('processing', 'manual_transfer_required')`);

    await q.query('CREATE INDEX ledger_transfers_by_debit ON ledger_transfers (debit_account_id, seq DESC)');
    await q.query('CREATE INDEX ledger_transfers_by_credit ON ledger_transfers (credit_account_id, seq DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX ledger_transfers_by_credit');
    await q.query('DROP INDEX ledger_transfers_by_debit');
    await q.query('DROP TABLE redemptions');
  }
}
