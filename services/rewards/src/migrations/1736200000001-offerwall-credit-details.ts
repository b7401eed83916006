import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a wall told about a credit beyond its points, for the user's history (docs/earning.md,
 * "Reversals explained"): the offer's name and, once reversed, the wall's reason, where the wall's
 * postback carries them. A row only for credits with something to say; the ledger and the tasks
 * stay as they are.
 */
export class OfferwallCreditDetails1736200000001 implements MigrationInterface {
  name = 'OfferwallCreditDetails1736200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE offerwall_credit_details (
        credit_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
        offer_name text CHECK (length(offer_name) BETWEEN 1 AND 200),
        reversal_reason text CHECK (length(reversal_reason) BETWEEN 1 AND 500)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE offerwall_credit_details');
  }
}
