import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in (docs/accounts.md).
 *
 * - `two_factor`: one row per account that started enrolling. `secret` is null until a code from
 *   the pending secret turned it on; `last_time_step` is the TOTP time-step last accepted, so a
 *   code is never accepted twice (RFC 6238 §5.2), even by two requests racing.
 * - `two_factor_recovery_codes`: argon2id hashes of the ten single-use codes; `used_at` is set
 *   once, by the request that spends it.
 */
export class TwoFactor1734300000000 implements MigrationInterface {
  name = 'TwoFactor1734300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE two_factor (
        user_id uuid PRIMARY KEY REFERENCES users (id),
        pending_secret text,
        secret text,
        enabled_at timestamptz,
        last_time_step bigint,
        CHECK ((secret IS NULL) = (enabled_at IS NULL))
      )`);
    await q.query(`
      CREATE TABLE two_factor_recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        code_hash text NOT NULL,
        used_at timestamptz
      )`);
    await q.query('CREATE INDEX two_factor_recovery_codes_unused ON two_factor_recovery_codes (user_id) WHERE used_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE two_factor_recovery_codes');
    await q.query('DROP TABLE two_factor');
  }
}
