import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How each purchase is paid (docs/payments.md, "Pix"): `card`, or `pix` (Brazil's instant
 * payments, reais only). The database refuses a Pix purchase in any other currency, so a Pix
 * PaymentIntent can never be created for a price in dollars and recorded.
 */
export class PurchasePaymentMethod1739000000000 implements MigrationInterface {
  name = 'PurchasePaymentMethod1739000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE esim_purchases ADD COLUMN payment_method text NOT NULL DEFAULT 'card'`);
    await q.query(`ALTER TABLE esim_purchases ADD CONSTRAINT esim_purchases_payment_method_check CHECK (payment_method IN ('card', 'pix'))`);
    await q.query(`ALTER TABLE esim_purchases ADD CONSTRAINT esim_purchases_pix_brl_check CHECK (payment_method <> 'pix' OR currency = 'brl')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE esim_purchases DROP CONSTRAINT esim_purchases_pix_brl_check');
    await q.query('ALTER TABLE esim_purchases DROP CONSTRAINT esim_purchases_payment_method_check');
    await q.query('ALTER TABLE esim_purchases DROP COLUMN payment_method');
  }
}
