import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reconciliation of unpaid purchases with Stripe (reconciliation/payment-reconciler.ts):
 * `reconcile_after` is when the purchase is next checked (also the claim of the replica checking
 * it), `reconcile_checks` how often it was. The partial index finds unpaid purchases by age.
 */
export class PaymentsReconciliation1734300000000 implements MigrationInterface {
  name = 'PaymentsReconciliation1734300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE esim_purchases ADD COLUMN reconcile_after timestamptz, ADD COLUMN reconcile_checks int NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX esim_purchases_unpaid ON esim_purchases (created_at) WHERE status IN ('pending', 'payment_failed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX esim_purchases_unpaid');
    await q.query('ALTER TABLE esim_purchases DROP COLUMN reconcile_after, DROP COLUMN reconcile_checks');
  }
}
