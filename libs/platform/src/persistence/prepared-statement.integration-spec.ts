import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@esim/testing';
import { PreparedStatement } from './prepared-statement';

/** Named prepared statements through TypeORM's connections, on the real Postgres. */
describe('PreparedStatement', () => {
  const schema = `prepared_${randomBytes(4).toString('hex')}`;
  let db: DataSource;
  let insert: PreparedStatement<{ id: number }>;
  const prepared = () =>
    db.query<Array<{ name: string }>>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'esim\\_%'`).then((rows) => rows.map((r) => r.name));
  const ids = () => db.query<Array<{ id: number }>>(`SELECT id FROM ${schema}.t ORDER BY id`).then((rows) => rows.map((r) => r.id));

  beforeAll(async () => {
    // One connection: what one statement prepared, the next finds.
    db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } }).initialize();
    await db.query(`CREATE SCHEMA ${schema}`);
    await db.query(`CREATE TABLE ${schema}.t (id int PRIMARY KEY)`);
    insert = new PreparedStatement(`INSERT INTO ${schema}.t SELECT unnest($1::int[]) RETURNING id`);
  });
  afterAll(async () => {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.destroy();
  });

  it('runs on its own (autocommit) and is prepared once on the connection, under a name of its text', async () => {
    expect(await insert.run(db, [[1, 2]])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await insert.run(db, [[3]])).toEqual([{ id: 3 }]);
    expect(await prepared()).toEqual([insert.name]);
    expect(new PreparedStatement(insert.text).name).toBe(insert.name);
    expect(new PreparedStatement(`${insert.text} `).name).not.toBe(insert.name);
  });

  it('is part of the transaction whose manager runs it: rolled back with it', async () => {
    await db
      .transaction(async (m) => {
        expect(await insert.run(m, [[10]])).toEqual([{ id: 10 }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.transaction(async (m) => {
      await insert.run(m, [[11]]);
    });
    expect(await ids()).toEqual([1, 2, 3, 11]);
  });

  it('fails like any statement, and the connection stays usable', async () => {
    await expect(insert.run(db, [[1]])).rejects.toThrow(/duplicate key/);
    expect(await insert.run(db, [[12]])).toEqual([{ id: 12 }]);
  });
});
