import { Client } from 'pg';
import type { VerifiedTls } from '../config/backing-services';
import { ensureDatabase } from './data-source';
import { PG_ERROR, postgresError } from './postgres-errors';

/** One service's database login: the schema it owns and the role it connects as. */
export interface ServiceRole {
  /** The schema the service owns (its DB_SCHEMA, by default its name). */
  schema: string;
  /** The role it connects as (serviceRoleName). */
  role: string;
  /** Its password; none: the role logs in however pg_hba.conf allows (a local trust rule). */
  password?: string;
}

/** The role a service connects as, when the operator does not name another: `esim_<service>`. */
export function serviceRoleName(service: string): string {
  return `esim_${service}`;
}

/** DATABASE_URL for `role` on the database of `url` (the admin's URL), with its password if any. */
export function roleUrl(url: string, role: ServiceRole): string {
  const u = new URL(url);
  u.username = encodeURIComponent(role.role);
  u.password = role.password ? encodeURIComponent(role.password) : '';
  return u.toString();
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Gives each service a role of its own, limited to its own schema (docs/operations.md,
 * "Database roles"): the role owns its schema, so its start-up migrations can create and change
 * what is in it, and has no privilege on any other (no USAGE: another service's tables, identity's
 * password hashes among them, cannot even be named). It cannot create schemas or databases, and is
 * no superuser. Run with an administrator's URL, before the services start; idempotent, so it is
 * re-run on every deploy or `npm start`:
 *
 * - a missing role is created, an existing one gets the password given (none: left as it is);
 *   roles are the cluster's, so databases side by side (the tests') share them, each its schemas;
 * - a schema that exists already (created by the administrator's own login in an earlier
 *   release) is handed to the role with every table, view, sequence, function and type in it;
 * - `extensions` are created here (in `public`), since creating one needs more than a service
 *   role has; identity's migration asks for pg_trgm only if it is missing.
 *
 * Hand-written: SQL grants have no library worth the name; this is the one place they are made.
 */
export async function ensureServiceRoles(adminUrl: string, roles: readonly ServiceRole[], opts: { ssl?: VerifiedTls; extensions?: readonly string[] } = {}): Promise<void> {
  await ensureDatabase(adminUrl, opts.ssl);
  const client = new Client({ connectionString: adminUrl, ssl: opts.ssl });
  await client.connect();
  try {
    // Several runs at once (replicas' init steps) take turns; the lock ends with the session.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['esim service roles']);
    const [{ db }] = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows;
    for (const ext of opts.extensions ?? []) await client.query(`CREATE EXTENSION IF NOT EXISTS ${ident(ext)} WITH SCHEMA public`);
    for (const r of roles) {
      const exists = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [r.role])).rowCount === 1;
      const attrs = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
      const password = r.password ? ` PASSWORD ${literal(r.password)}` : '';
      if (!exists) {
        try {
          await client.query(`CREATE ROLE ${ident(r.role)} ${attrs}${password}`);
        } catch (err) {
          // Another database of the same cluster created it meanwhile (roles are cluster-wide).
          if (postgresError(err).code !== PG_ERROR.duplicateObject) throw err;
        }
      }
      // Only with a password to set: roles are the cluster's, and two databases' steps altering one
      // role at the same moment would collide ("tuple concurrently updated").
      if (password) await client.query(`ALTER ROLE ${ident(r.role)} ${attrs}${password}`);
      await client.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${ident(db)} TO ${ident(r.role)}`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(r.schema)} AUTHORIZATION ${ident(r.role)}`);
      await client.query(`ALTER SCHEMA ${ident(r.schema)} OWNER TO ${ident(r.role)}`);
      await client.query(`REVOKE ALL ON SCHEMA ${ident(r.schema)} FROM PUBLIC`);
      // A DO block takes no parameters: it reads them from the session's settings.
      await client.query("SELECT set_config('esim.roles_schema', $1, false), set_config('esim.roles_role', $2, false)", [r.schema, r.role]);
      await client.query(handOverSchema);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Every object of schema $1 not owned by role $2 becomes its own, so its migrations can change it.
 * Sequences that belong to a column move with their table (Postgres refuses them on their own).
 */
const handOverSchema = `
DO $$
DECLARE
  target_schema text := current_setting('esim.roles_schema');
  target_role text := current_setting('esim.roles_role');
  obj record;
BEGIN
  FOR obj IN
    SELECT CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind,
           format('%I.%I', n.nspname, c.relname) AS name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = target_schema AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND c.relowner <> target_role::regrole
       AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO %I', obj.kind, obj.name, target_role);
  END LOOP;
  FOR obj IN
    SELECT p.oid::regprocedure::text AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = target_schema AND p.proowner <> target_role::regrole
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO %I', obj.name, target_role);
  END LOOP;
  FOR obj IN
    SELECT format('%I.%I', n.nspname, t.typname) AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = target_schema AND t.typtype IN ('e', 'd', 'r') AND t.typowner <> target_role::regrole
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO %I', obj.name, target_role);
  END LOOP;
END $$`;
