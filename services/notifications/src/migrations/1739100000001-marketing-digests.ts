import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The weekly promotional digest (docs/accounts.md, "What each switch governs"): one row per
 * account and period, written with the email's job, so each person gets at most one per period
 * however many replicas run the digest or how often it is run again. A deleted account's rows go.
 */
export class MarketingDigests1739100000001 implements MigrationInterface {
  name = 'MarketingDigests1739100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE marketing_digests (
        user_id uuid NOT NULL,
        period_start timestamptz NOT NULL,
        queued_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE marketing_digests');
  }
}
