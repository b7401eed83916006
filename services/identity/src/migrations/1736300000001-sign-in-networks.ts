import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The networks accounts signed up and signed in from (docs/earning.md, "Fair fraud control"): an
 * IPv4 address, or the /64 of an IPv6 one, as the gateway resolved the client. Shown to admins
 * beside a device link; never a link on its own (carrier-grade NAT puts many people behind one).
 */
export class SignInNetworks1736300000001 implements MigrationInterface {
  name = 'SignInNetworks1736300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_networks (
        user_id uuid NOT NULL REFERENCES users (id),
        network text NOT NULL CHECK (length(network) BETWEEN 1 AND 64),
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, network)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE user_networks');
  }
}
