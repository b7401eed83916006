import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin console (docs/admin.md).
 *
 * - `admin_points_rank`: every user's points, refreshed by `PointsRank` a few seconds behind the
 *   ledger, so that the user table can be ordered by points at 100,000 users with one index scan
 *   (a balance is a sum of entries; summing them all for every page does not scale). It is a
 *   projection only: nothing reads it for money, and the table shows the live balance.
 * - `redemption_operator_actions`: what operators did to a stuck redemption, append-only.
 */
export class RewardsAdminConsole1734200000000 implements MigrationInterface {
  name = 'RewardsAdminConsole1734200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_points_rank (
        user_id uuid PRIMARY KEY,
        points bigint NOT NULL,
        refreshed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX admin_points_rank_order ON admin_points_rank (points, user_id)');

    await q.query(`
      CREATE TABLE redemption_operator_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        redemption_id uuid NOT NULL REFERENCES redemptions (id),
        action text NOT NULL CHECK (action IN ('retry')),
        admin_id uuid NOT NULL,
        detail text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX redemption_operator_actions_by_redemption ON redemption_operator_actions (redemption_id, at)');
    await q.query(`
      CREATE FUNCTION redemption_operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(
      'CREATE TRIGGER redemption_operator_actions_immutable BEFORE UPDATE OR DELETE ON redemption_operator_actions FOR EACH ROW EXECUTE FUNCTION redemption_operator_actions_append_only()',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE redemption_operator_actions');
    await q.query('DROP FUNCTION redemption_operator_actions_append_only()');
    await q.query('DROP TABLE admin_points_rank');
  }
}
