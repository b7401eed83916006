import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version per account, raised by every change of the row (TypeORM's @VersionColumn, under the
 * row's lock). ProfileChanged carries it, so the gateway's user view can tell a later account
 * from an earlier one whatever order the events arrive in.
 */
export class UserVersion1734100000000 implements MigrationInterface {
  name = 'UserVersion1734100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN version integer NOT NULL DEFAULT 1');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN version');
  }
}
