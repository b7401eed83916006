import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * State of the KeepGo emulator, kept in Postgres (its own schema, sandbox_keepgo) so that it
 * survives a restart, as a real provider's would.
 */
export class KeepGoSandbox1732060950000 implements MigrationInterface {
  name = 'KeepGoSandbox1732060950000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE keepgo_sandbox_account (
        id smallint PRIMARY KEY CHECK (id = 1),
        balance_usd numeric(12, 2) NOT NULL
      )`);
    await q.query(`
      CREATE TABLE keepgo_sandbox_lines (
        iccid text PRIMARY KEY CHECK (iccid ~ '^89[0-9]{16,20}$'),
        msisdn text,
        lpa_code text NOT NULL,
        bundle_id integer NOT NULL,
        status text NOT NULL CHECK (status IN ('Registered', 'Activated', 'Deactivated')),
        notes text NOT NULL DEFAULT '',
        deactivation_date date,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query('CREATE INDEX keepgo_sandbox_lines_newest ON keepgo_sandbox_lines (created_at DESC, iccid DESC)');
    await q.query(`
      CREATE TABLE keepgo_sandbox_data_bundles (
        id serial PRIMARY KEY,
        iccid text NOT NULL REFERENCES keepgo_sandbox_lines (iccid),
        allowed_usage_kb bigint NOT NULL CHECK (allowed_usage_kb > 0),
        remaining_usage_kb bigint NOT NULL,
        validity_days integer,
        assigned_at timestamptz NOT NULL DEFAULT now(),
        expire_at timestamptz
      )`);
    await q.query('CREATE INDEX keepgo_sandbox_data_bundles_line ON keepgo_sandbox_data_bundles (iccid, id)');
    await q.query(`
      CREATE TABLE keepgo_sandbox_transactions (
        id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('create', 'refill')),
        iccid text NOT NULL REFERENCES keepgo_sandbox_lines (iccid),
        idempotency_key text UNIQUE,
        request jsonb NOT NULL,
        response jsonb NOT NULL,
        price_usd numeric(12, 2) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE keepgo_sandbox_transactions');
    await q.query('DROP TABLE keepgo_sandbox_data_bundles');
    await q.query('DROP TABLE keepgo_sandbox_lines');
    await q.query('DROP TABLE keepgo_sandbox_account');
  }
}
