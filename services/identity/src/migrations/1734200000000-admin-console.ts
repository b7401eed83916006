import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin console (docs/admin.md).
 *
 * - The user table is searched and paged here at 100,000 accounts: a trigram index answers
 *   "part of a name or email" (pg_trgm, created once per database in `public` under a lock, since
 *   every service schema of the database shares it; without the right to create it, search still
 *   works by scanning), and one index per order gives keyset pages.
 * - `admin_audit_log` and `admin_audit_outcomes`: the audit trail of admin actions. The database
 *   refuses UPDATE, DELETE and TRUNCATE on both, whoever asks; an entry's outcome is a row of its
 *   own, written once. Grants and revokes of admin are written by a trigger on `users.is_admin`, so
 *   no path (ADMIN_EMAILS, the operator command, a deletion) can change the flag unrecorded; the
 *   writer names itself in the transaction setting `esim.audit_actor`.
 */
export class AdminConsole1734200000000 implements MigrationInterface {
  name = 'AdminConsole1734200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('extension:pg_trgm'))`);
    await q.query(`
      DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm cannot be created here: user search scans instead of using an index';
      END $$`);
    const [trgm] = await q.query(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
    );
    if (trgm) {
      await q.query(
        `CREATE INDEX users_live_search ON users USING gin ((email || ' ' || lower(name)) "${trgm.schema}".gin_trgm_ops) WHERE deleted_at IS NULL`,
      );
    }
    await q.query('CREATE INDEX users_live_created_id ON users (created_at, id) WHERE deleted_at IS NULL');
    await q.query('CREATE INDEX users_live_name ON users (lower(name), id) WHERE deleted_at IS NULL');
    await q.query('CREATE INDEX users_live_email ON users (email, id) WHERE deleted_at IS NULL');

    await q.query(`
      CREATE TABLE admin_audit_log (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid,
        actor text NOT NULL CHECK (length(actor) BETWEEN 1 AND 100),
        action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_]{1,63}$'),
        target_type text,
        target_id text,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`
      CREATE TABLE admin_audit_outcomes (
        entry_id uuid PRIMARY KEY REFERENCES admin_audit_log (id),
        outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
        message text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION admin_audit_append_only() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of ['admin_audit_log', 'admin_audit_outcomes']) {
      await q.query(`CREATE TRIGGER ${table}_immutable BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION admin_audit_append_only()`);
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_append_only()`);
    }

    await q.query(`
      CREATE FUNCTION users_audit_admin_flag() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        v_actor text := nullif(current_setting('esim.audit_actor', true), '');
        v_actor_id uuid := nullif(current_setting('esim.audit_actor_id', true), '')::uuid;
        v_entry uuid := gen_random_uuid();
      BEGIN
        IF TG_OP = 'INSERT' AND NOT NEW.is_admin THEN RETURN NULL; END IF;
        IF TG_OP = 'UPDATE' AND NEW.is_admin = OLD.is_admin THEN RETURN NULL; END IF;
        IF v_actor IS NULL THEN
          -- An account is created an admin only from ADMIN_EMAILS; a deletion clears the flag.
          v_actor := CASE WHEN TG_OP = 'INSERT' THEN 'ADMIN_EMAILS' WHEN NEW.deleted_at IS NOT NULL THEN 'account_deleted' ELSE 'system' END;
        END IF;
        INSERT INTO admin_audit_log (id, actor_id, actor, action, target_type, target_id, details)
          VALUES (v_entry, v_actor_id, v_actor, CASE WHEN NEW.is_admin THEN 'admin_granted' ELSE 'admin_revoked' END,
                  'user', NEW.id::text, '{}');
        INSERT INTO admin_audit_outcomes (entry_id, outcome) VALUES (v_entry, 'succeeded');
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER users_admin_flag_audited AFTER INSERT OR UPDATE OF is_admin ON users FOR EACH ROW EXECUTE FUNCTION users_audit_admin_flag()',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER users_admin_flag_audited ON users');
    await q.query('DROP FUNCTION users_audit_admin_flag()');
    await q.query('DROP TABLE admin_audit_outcomes');
    await q.query('DROP TABLE admin_audit_log');
    await q.query('DROP FUNCTION admin_audit_append_only()');
    await q.query('DROP INDEX users_live_email');
    await q.query('DROP INDEX users_live_name');
    await q.query('DROP INDEX users_live_created_id');
    await q.query('DROP INDEX IF EXISTS users_live_search');
  }
}
