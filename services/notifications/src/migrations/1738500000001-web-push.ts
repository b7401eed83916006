import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web Push (docs/wallet.md, "Web Push"): the browsers' subscriptions, one row per endpoint (a
 * browser is one person at a time), and the VAPID key pair generated for a deployment that
 * configures none (development), kept so replicas and restarts sign with the key browsers
 * subscribed with.
 */
export class NotificationsWebPush1738500000001 implements MigrationInterface {
  name = 'NotificationsWebPush1738500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE push_subscriptions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        endpoint text NOT NULL UNIQUE,
        p256dh text NOT NULL,
        auth text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)');
    await q.query(`
      CREATE TABLE generated_vapid_keys (
        id integer PRIMARY KEY CHECK (id = 1),
        public_key text NOT NULL,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE generated_vapid_keys');
    await q.query('DROP TABLE push_subscriptions');
  }
}
