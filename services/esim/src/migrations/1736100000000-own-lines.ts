import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Topping up an eSIM never hands it over (docs/decisions.md, "Topping up someone else's eSIM").
 * `provisionings.own_line` says whether a delivery's line is in the redeemer's wallet; only then
 * does the provisioning keep the line's activation code. Wallet lines that a top-up created (the
 * user never received the line: no new eSIM of theirs delivered it, and they did not buy it) are
 * removed, and the activation codes that earlier top-ups of such lines recorded are forgotten.
 */
export class EsimOwnLines1736100000000 implements MigrationInterface {
  name = 'EsimOwnLines1736100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE provisionings ADD COLUMN own_line boolean NOT NULL DEFAULT false');
    await q.query(`UPDATE provisionings SET own_line = true WHERE kind = 'new'`);
    await q.query(`
      DELETE FROM esim_lines l
       WHERE l.source <> 'bought'
         AND NOT EXISTS (SELECT 1 FROM provisionings p
                          WHERE p.user_id = l.user_id AND p.iccid = l.iccid AND p.kind = 'new' AND p.status = 'succeeded')`);
    await q.query(`
      UPDATE provisionings p SET own_line = true
       WHERE p.kind = 'topup' AND EXISTS (SELECT 1 FROM esim_lines l WHERE l.user_id = p.user_id AND l.iccid = p.iccid)`);
    await q.query(`UPDATE provisionings SET lpa_code = NULL, msisdn = NULL WHERE kind = 'topup' AND NOT own_line`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE provisionings DROP COLUMN own_line');
  }
}
