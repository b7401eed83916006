import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the emulated offer walls paid (schema sandbox_walls), per wall and uid, as a provider's own records. */
export class WallsSandbox1737000000003 implements MigrationInterface {
  name = 'WallsSandbox1737000000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE paid_transactions (
        transaction_id text NOT NULL,
        provider text NOT NULL,
        uid text NOT NULL,
        points integer NOT NULL,
        reversed boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (provider, transaction_id)
      )`);
    await q.query('CREATE INDEX paid_transactions_newest ON paid_transactions (provider, uid, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE paid_transactions');
  }
}
