import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ensureDatabase, ensureServiceRoles, openDataSource, PG_ERROR, postgresError, roleUrl, type ServiceRole } from '@esim/platform';
import { TEST_DATABASE_URL } from '@esim/testing';
import { IDENTITY_MIGRATIONS } from '../../services/identity/src/persistence';

/**
 * One database role per service, limited to its own schema (docs/operations.md, "Database
 * roles"): identity migrates its schema as its own role, and esim's role cannot read identity's
 * users (their password hashes) nor write anything outside its schema.
 */
describe('per-service database roles', () => {
  const run = randomBytes(3).toString('hex');
  const identity: ServiceRole = { schema: `identity_${run}`, role: `esim_identity_${run}` };
  const esim: ServiceRole = { schema: `esim_${run}`, role: `esim_esim_${run}` };
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  const opened: DataSource[] = [];
  const clients: Client[] = [];

  /** A plain connection as `role`, as the service's pool would open it. */
  async function connectAs(role: ServiceRole): Promise<Client> {
    const c = new Client({ connectionString: roleUrl(TEST_DATABASE_URL, role), options: `-c search_path=${role.schema}` });
    await c.connect();
    clients.push(c);
    return c;
  }
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'allowed',
      (err: unknown) => postgresError(err).code,
    );

  beforeAll(async () => {
    await ensureDatabase(TEST_DATABASE_URL);
    await admin.connect();
    // esim's schema as an earlier release left it: made by the administrator's login, with a table.
    await admin.query(`CREATE SCHEMA "${esim.schema}"`);
    await admin.query(`CREATE TABLE "${esim.schema}".old_lines (id serial PRIMARY KEY, iccid text)`);
    await ensureServiceRoles(TEST_DATABASE_URL, [identity, esim], { extensions: ['pg_trgm'] });
    // Idempotent: every deploy (and npm start) runs it again.
    await ensureServiceRoles(TEST_DATABASE_URL, [identity, esim], { extensions: ['pg_trgm'] });
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    for (const ds of opened) await ds.destroy().catch(() => undefined);
    for (const r of [identity, esim]) {
      await admin.query(`DROP SCHEMA IF EXISTS "${r.schema}" CASCADE`);
      await admin.query(`DROP OWNED BY "${r.role}"`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS "${r.role}"`);
    }
    await admin.end();
  });

  it("runs identity's migrations as identity's own role", async () => {
    const ds = await openDataSource({ url: roleUrl(TEST_DATABASE_URL, identity), schema: identity.schema, entities: [], migrations: IDENTITY_MIGRATIONS });
    opened.push(ds);
    const [{ owner }] = await ds.query(`SELECT tableowner AS owner FROM pg_tables WHERE schemaname = $1 AND tablename = 'users'`, [identity.schema]);
    expect(owner).toBe(identity.role);
    await ds.query(`INSERT INTO users (email, password_hash, name, settings) VALUES ('roles@example.com', 'hash', 'Roles', '{}')`);
    expect(await ds.query(`SELECT count(*)::int AS n FROM users`)).toEqual([{ n: 1 }]);
  });

  it("refuses esim's role every read and write of identity's schema", async () => {
    const c = await connectAs(esim);
    expect(await refusal(c.query(`SELECT password_hash FROM "${identity.schema}".users`))).toBe(PG_ERROR.insufficientPrivilege);
    expect(await refusal(c.query(`CREATE TABLE "${identity.schema}".planted (id int)`))).toBe(PG_ERROR.insufficientPrivilege);
    expect(await refusal(c.query(`CREATE SCHEMA "elsewhere_${run}"`))).toBe(PG_ERROR.insufficientPrivilege);
    expect(await refusal(c.query(`SET ROLE "${identity.role}"`))).toBe(PG_ERROR.insufficientPrivilege);
  });

  it("gives esim's role the schema an earlier release made, and what is in it", async () => {
    const ds = await openDataSource({ url: roleUrl(TEST_DATABASE_URL, esim), schema: esim.schema, entities: [], migrations: [] });
    opened.push(ds);
    await ds.query(`ALTER TABLE old_lines ADD COLUMN note text`);
    await ds.query(`INSERT INTO old_lines (iccid, note) VALUES ('8901', 'kept')`);
    expect(await ds.query(`SELECT iccid, note FROM old_lines`)).toEqual([{ iccid: '8901', note: 'kept' }]);
  });
});
