import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Referrals and the first-party device signal (docs/earning.md, "Referrals"):
 * - every account has a referral code (8 characters of REFERRAL_CODE_ALPHABET, unique); existing
 *   accounts get one here;
 * - `referred_by`: the inviter whose code the account signed up with;
 * - `user_devices`: the device ids (the SPA's own id, `X-Device-Id`) an account signed up or signed
 *   in from, first and last seen. A device id links accounts; an address alone never does.
 */
export class ReferralsAndDevices1736300000000 implements MigrationInterface {
  name = 'ReferralsAndDevices1736300000000';

  async up(q: QueryRunner): Promise<void> {
    // The alphabet leaves out 0, O, 1, I and L; one random character per position (31^8 codes, so
    // a collision, refused by the unique index, is as rare as a lost race of the email's).
    await q.query(`
      CREATE FUNCTION new_referral_code() RETURNS text LANGUAGE sql VOLATILE AS $$
        SELECT string_agg(substr('ABCDEFGHJKMNPQRSTUVWXYZ23456789', 1 + floor(random() * 31)::int, 1), '') FROM generate_series(1, 8)
      $$`);
    await q.query('ALTER TABLE users ADD COLUMN referral_code text NOT NULL DEFAULT new_referral_code(), ADD COLUMN referred_by uuid REFERENCES users (id)');
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_referral_code_format CHECK (referral_code ~ '^[A-HJKMNP-Z2-9]{8}$')`);
    await q.query('CREATE UNIQUE INDEX users_referral_code ON users (referral_code)');
    await q.query('CREATE INDEX users_referred_by ON users (referred_by) WHERE referred_by IS NOT NULL');
    await q.query(`
      CREATE TABLE user_devices (
        user_id uuid NOT NULL REFERENCES users (id),
        device_id uuid NOT NULL,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, device_id)
      )`);
    await q.query('CREATE INDEX user_devices_by_device ON user_devices (device_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE user_devices');
    await q.query('ALTER TABLE users DROP COLUMN referred_by, DROP COLUMN referral_code');
    await q.query('DROP FUNCTION new_referral_code()');
  }
}
