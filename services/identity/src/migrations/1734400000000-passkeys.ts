import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (docs/accounts.md): WebAuthn credentials, one row each, named by the credential id the
 * authenticator chose (base64url). `counter` is the signature counter last seen, for
 * @simplewebauthn/server to spot a cloned authenticator.
 */
export class Passkeys1734400000000 implements MigrationInterface {
  name = 'Passkeys1734400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE passkeys (
        id text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id),
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await q.query('CREATE INDEX passkeys_user ON passkeys (user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE passkeys');
  }
}
