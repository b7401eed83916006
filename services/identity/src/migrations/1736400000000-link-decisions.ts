import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An admin's "not the same person" over a linked group (docs/earning.md, "Risk rules"): the
 * group's device rows are marked, and two accounts stay linked by a device only while one of their
 * two rows is unmarked. An account that uses the device later is linked to all of them again, for
 * an admin to look at anew.
 */
export class LinkDecisions1736400000000 implements MigrationInterface {
  name = 'LinkDecisions1736400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE user_devices ADD COLUMN link_cleared_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE user_devices DROP COLUMN link_cleared_at');
  }
}
