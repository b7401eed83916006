import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Low-data alerts (docs/wallet.md, "Low-data alerts"). `line_usage_checks` says when each line is
 * next read in the background: a replica claims a line by moving its time forward in one
 * statement, so two replicas never read the same line in one round. `line_data_alerts` holds one
 * row per line, threshold and data cycle (the line's allowed MB: a top-up starts a new cycle); its
 * key is what makes an alert once only, whatever the replicas, restarts and replays.
 */
export class EsimUsageAlerts1738500000000 implements MigrationInterface {
  name = 'EsimUsageAlerts1738500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE line_usage_checks (
        iccid text PRIMARY KEY,
        next_check_at timestamptz NOT NULL,
        checked_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE line_data_alerts (
        id uuid PRIMARY KEY,
        iccid text NOT NULL,
        threshold text NOT NULL CHECK (threshold IN ('percent_used', 'mb_left')),
        cycle_allowed_mb integer NOT NULL,
        user_id uuid NOT NULL,
        remaining_mb integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT line_data_alerts_once UNIQUE (iccid, threshold, cycle_allowed_mb)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE line_data_alerts');
    await q.query('DROP TABLE line_usage_checks');
  }
}
