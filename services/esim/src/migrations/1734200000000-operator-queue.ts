import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator queue (docs/admin.md). `provisioning_operator_actions` is the history of what
 * operators did to a delivery that waited for a person, and what came of it: append-only. A
 * delivery an operator is resolving is `in_progress` with `lease_until = 'infinity'`, which the
 * sweeper never claims. The partial index finds the deliveries waiting for a person.
 */
export class EsimOperatorQueue1734200000000 implements MigrationInterface {
  name = 'EsimOperatorQueue1734200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provisioning_operator_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        provisioning_id uuid NOT NULL REFERENCES provisionings (id),
        action text NOT NULL CHECK (action IN ('retry', 'deliver', 'refund', 'outcome')),
        admin_id uuid,
        detail text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX provisioning_operator_actions_by_provisioning ON provisioning_operator_actions (provisioning_id, seq)');
    await q.query(`
      CREATE FUNCTION provisioning_operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(
      'CREATE TRIGGER provisioning_operator_actions_immutable BEFORE UPDATE OR DELETE ON provisioning_operator_actions FOR EACH ROW EXECUTE FUNCTION provisioning_operator_actions_append_only()',
    );
    await q.query(`CREATE INDEX provisionings_waiting ON provisionings (completed_at) WHERE status = 'manual_transfer_required'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX provisionings_waiting');
    await q.query('DROP TABLE provisioning_operator_actions');
    await q.query('DROP FUNCTION provisioning_operator_actions_append_only()');
  }
}
