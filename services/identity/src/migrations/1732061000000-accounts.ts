import { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1732061000000 implements MigrationInterface {
  name = 'Accounts1732061000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email = lower(email)),
        password_hash text,
        name text,
        email_verified boolean NOT NULL DEFAULT false,
        phone text,
        locale text NOT NULL DEFAULT 'pt',
        settings jsonb NOT NULL,
        is_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        password_changed_at timestamptz,
        deleted_at timestamptz,
        -- A deleted account keeps only its id (other services' records point to it) and nothing personal.
        CONSTRAINT users_live_or_erased CHECK (
          (deleted_at IS NULL AND password_hash IS NOT NULL AND name IS NOT NULL)
          OR (deleted_at IS NOT NULL AND password_hash IS NULL AND name IS NULL AND phone IS NULL AND NOT is_admin)
        )
      )`);
    await q.query('CREATE UNIQUE INDEX users_email_key ON users (email)');
    await q.query('CREATE INDEX users_live_created ON users (created_at) WHERE deleted_at IS NULL');

    await q.query(`
      CREATE TABLE email_verification_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        purpose text NOT NULL CHECK (purpose IN ('signup', 'email_change')),
        email text NOT NULL,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used boolean NOT NULL DEFAULT false,
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        resent boolean NOT NULL DEFAULT false,
        replaced_at timestamptz,
        CHECK ((purpose = 'email_change') = (user_id IS NOT NULL))
      )`);
    await q.query('CREATE INDEX email_verification_codes_email ON email_verification_codes (email, created_at DESC)');
    await q.query('CREATE INDEX email_verification_codes_created ON email_verification_codes (created_at)');
    // At most one open code per sign-up email and per pending email change.
    await q.query(`CREATE UNIQUE INDEX email_verification_codes_open_signup ON email_verification_codes (email)
                    WHERE purpose = 'signup' AND NOT used AND replaced_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX email_verification_codes_open_change ON email_verification_codes (user_id)
                    WHERE purpose = 'email_change' AND NOT used AND replaced_at IS NULL`);

    await q.query(`
      CREATE TABLE password_reset_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used boolean NOT NULL DEFAULT false
      )`);
    await q.query('CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE password_reset_tokens');
    await q.query('DROP TABLE email_verification_codes');
    await q.query('DROP TABLE users');
  }
}
