import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automatic top-ups with points (docs/wallet.md, "Top-up with points"): the user's rule per line,
 * and one trigger row per line and data cycle (the line's allowed MB when it fell below the
 * rule's MB). The trigger's key is what makes one redemption per trigger: two checks racing, two
 * replicas, a restart all meet the same row, and the redemption's Idempotency-Key is derived
 * from the row, so rewards reserves the points once even when the request is sent again.
 */
export class EsimAutoTopups1738500000002 implements MigrationInterface {
  name = 'EsimAutoTopups1738500000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auto_topup_rules (
        user_id uuid NOT NULL,
        iccid text NOT NULL,
        enabled boolean NOT NULL,
        below_mb integer NOT NULL CHECK (below_mb > 0),
        monthly_cap integer NOT NULL CHECK (monthly_cap > 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, iccid)
      )`);
    await q.query(`
      CREATE TABLE auto_topup_triggers (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        iccid text NOT NULL,
        cycle_allowed_mb integer NOT NULL,
        remaining_mb integer NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'requested', 'no_points')),
        redemption_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT auto_topup_triggers_once UNIQUE (iccid, cycle_allowed_mb)
      )`);
    await q.query('CREATE INDEX auto_topup_triggers_month ON auto_topup_triggers (user_id, iccid, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auto_topup_triggers');
    await q.query('DROP TABLE auto_topup_rules');
  }
}
