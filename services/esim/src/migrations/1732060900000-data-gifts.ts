import { MigrationInterface, QueryRunner } from 'typeorm';

export class DataGifts1732060900000 implements MigrationInterface {
  name = 'DataGifts1732060900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE data_gifts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        amount_gb integer NOT NULL CHECK (amount_gb > 0),
        plan_tier text NOT NULL,
        iccid text,
        status text NOT NULL DEFAULT 'granted' CHECK (status IN ('granted', 'delivered', 'cancelled')),
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await q.query('CREATE INDEX data_gifts_user ON data_gifts (user_id, delivered_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE data_gifts');
  }
}
