import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card purchases join the provisioning pipeline (docs/payments.md, "Issuing the eSIM"): a paid
 * purchase is a `provisionings` row of source `purchase`, whose `redemption_id` holds the
 * purchase id (our reference with KeepGo), for any catalogue tier (10GB included). It delivers
 * no data gift, so only the other sources need one to succeed.
 *
 * `order_sent_at`: set, and committed, right before a new line is ordered from KeepGo. A later
 * attempt that finds it set and no line carrying our reference cannot tell whether the order was
 * carried out, so it hands the delivery to a person instead of ordering again
 * (provisioning-runner.ts).
 */
export class EsimPurchaseProvisionings1737100000000 implements MigrationInterface {
  name = 'EsimPurchaseProvisionings1737100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_source_check');
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_source_check CHECK (source IN ('points', 'gift', 'purchase'))`);
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_plan_tier_check');
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_plan_tier_check CHECK (plan_tier IN ('1GB', '3GB', '5GB', '10GB'))`);
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_delivered');
    await q.query(`
      ALTER TABLE provisionings ADD CONSTRAINT provisionings_delivered
        CHECK ((status = 'succeeded') = (iccid IS NOT NULL AND (delivered_gift_id IS NOT NULL OR source = 'purchase')))`);
    // A purchase is always a new line, and costs no points.
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_purchase CHECK (source <> 'purchase' OR (kind = 'new' AND points = 0))`);
    await q.query('ALTER TABLE provisionings ADD COLUMN order_sent_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE provisionings DROP COLUMN order_sent_at');
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_purchase');
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_delivered');
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_delivered CHECK ((status = 'succeeded') = (iccid IS NOT NULL AND delivered_gift_id IS NOT NULL))`);
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_plan_tier_check');
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_plan_tier_check CHECK (plan_tier IN ('1GB', '3GB', '5GB'))`);
    await q.query('ALTER TABLE provisionings DROP CONSTRAINT provisionings_source_check');
    await q.query(`ALTER TABLE provisionings ADD CONSTRAINT provisionings_source_check CHECK (source IN ('points', 'gift'))`);
  }
}
