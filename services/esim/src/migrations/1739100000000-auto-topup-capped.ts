import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trigger refused because the rule's monthly cap was reached is kept as a trigger of its own
 * status (`capped`), so the refusal is told to the user once per data cycle
 * (docs/wallet.md, "Telling the user"); it does not count toward the cap.
 */
export class EsimAutoTopupCapped1739100000000 implements MigrationInterface {
  name = 'EsimAutoTopupCapped1739100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE auto_topup_triggers DROP CONSTRAINT auto_topup_triggers_status_check');
    await q.query(
      `ALTER TABLE auto_topup_triggers ADD CONSTRAINT auto_topup_triggers_status_check CHECK (status IN ('pending', 'requested', 'no_points', 'capped'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auto_topup_triggers WHERE status = 'capped'`);
    await q.query('ALTER TABLE auto_topup_triggers DROP CONSTRAINT auto_topup_triggers_status_check');
    await q.query(
      `ALTER TABLE auto_topup_triggers ADD CONSTRAINT auto_topup_triggers_status_check CHECK (status IN ('pending', 'requested', 'no_points'))`,
    );
  }
}
