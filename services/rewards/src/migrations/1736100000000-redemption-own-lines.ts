import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Topping up an eSIM never hands it over (docs/decisions.md, "Topping up someone else's eSIM"):
 * `redemptions.own_line` says whether the delivered line is in the redeemer's wallet, and only
 * then does a top-up keep the line's activation code and phone number. Top-ups recorded before
 * this column existed are not known to be the redeemer's own, so what they kept is forgotten (the
 * owner still finds it in their wallet).
 */
export class RedemptionOwnLines1736100000000 implements MigrationInterface {
  name = 'RedemptionOwnLines1736100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE redemptions ADD COLUMN own_line boolean NOT NULL DEFAULT false');
    await q.query(`UPDATE redemptions SET own_line = true WHERE kind = 'new'`);
    await q.query(`UPDATE redemptions SET lpa_code = NULL, msisdn = NULL WHERE kind = 'topup' AND lpa_code IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE redemptions DROP COLUMN own_line');
  }
}
