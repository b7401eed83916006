import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Purchases are charged in reais (Brazil) or US dollars (docs/payments.md, "Currencies and
 * prices"): the row's currency (Stripe's lower-case code) is the one its PaymentIntent was created
 * in and `price_usd` holds minor units of that currency. A currency outside the catalogue's is
 * refused by the database, so an amount can never be read in the wrong unit.
 */
export class PurchaseCurrency1738000000000 implements MigrationInterface {
  name = 'PurchaseCurrency1738000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE esim_purchases ADD CONSTRAINT esim_purchases_currency_check CHECK (currency IN ('usd', 'brl'))`);
    await q.query(`COMMENT ON COLUMN esim_purchases.price_usd IS 'price in minor units of currency (cents or centavos), from the catalogue'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('COMMENT ON COLUMN esim_purchases.price_usd IS NULL');
    await q.query('ALTER TABLE esim_purchases DROP CONSTRAINT esim_purchases_currency_check');
  }
}
