import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator queue for card purchases (docs/admin.md): what operators did to a purchase whose
 * eSIM needed a person (retry, delivery by hand, card refund with Stripe's refund id), append-only.
 * The partial index finds paid purchases still waiting for their eSIM.
 */
export class PaymentsOperatorQueue1734200000000 implements MigrationInterface {
  name = 'PaymentsOperatorQueue1734200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE purchase_operator_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        purchase_id uuid NOT NULL REFERENCES esim_purchases (id),
        action text NOT NULL CHECK (action IN ('retry', 'deliver', 'refund')),
        admin_id uuid NOT NULL,
        detail text,
        refund_id text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX purchase_operator_actions_by_purchase ON purchase_operator_actions (purchase_id, seq)');
    await q.query(`
      CREATE FUNCTION purchase_operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(
      'CREATE TRIGGER purchase_operator_actions_immutable BEFORE UPDATE OR DELETE ON purchase_operator_actions FOR EACH ROW EXECUTE FUNCTION purchase_operator_actions_append_only()',
    );
    await q.query(`CREATE INDEX esim_purchases_processing ON esim_purchases (paid_at) WHERE status = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX esim_purchases_processing');
    await q.query('DROP TABLE purchase_operator_actions');
    await q.query('DROP FUNCTION purchase_operator_actions_append_only()');
  }
}
