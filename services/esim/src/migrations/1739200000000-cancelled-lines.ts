import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bought line deactivated at KeepGo for a self-serve refund (docs/payments.md, "Refunds") is
 * marked cancelled in the wallet: the background usage reads, data alerts and automatic top-ups
 * skip it, and My eSIMs says it was refunded. The database admits only the two states, and a
 * cancelled line always says when.
 */
export class EsimCancelledLines1739200000000 implements MigrationInterface {
  name = 'EsimCancelledLines1739200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE esim_lines ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled'))`);
    await q.query('ALTER TABLE esim_lines ADD COLUMN cancelled_at timestamptz');
    await q.query(`ALTER TABLE esim_lines ADD CONSTRAINT esim_lines_cancelled_when CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE esim_lines DROP CONSTRAINT esim_lines_cancelled_when');
    await q.query('ALTER TABLE esim_lines DROP COLUMN cancelled_at');
    await q.query('ALTER TABLE esim_lines DROP COLUMN status');
  }
}
