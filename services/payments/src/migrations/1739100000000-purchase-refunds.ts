import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-serve refunds (docs/payments.md, "Refunds"): one row per refunded purchase, the purchase
 * id its primary key, so the database itself refuses a second refund of a purchase however many
 * requests race for it. `pending` while the line is cancelled and Stripe refunds; `succeeded`
 * with Stripe's refund id once done.
 */
export class PurchaseRefunds1739100000000 implements MigrationInterface {
  name = 'PurchaseRefunds1739100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE purchase_refunds (
      purchase_id uuid PRIMARY KEY REFERENCES esim_purchases(id),
      user_id uuid NOT NULL,
      amount int NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency IN ('usd', 'brl')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded')),
      stripe_refund_id text UNIQUE,
      requested_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      CHECK ((status = 'succeeded') = (completed_at IS NOT NULL))
    )`);
    await q.query(`CREATE INDEX purchase_refunds_requested_at ON purchase_refunds (requested_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE purchase_refunds');
  }
}
