import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@esim/testing';
import { isCheckViolation, isUniqueViolation, postgresError, violatedConstraint } from './postgres-errors';

/** The errors the real Postgres raises, through TypeORM (QueryFailedError) and straight from pg. */
describe('reading Postgres errors', () => {
  const schema = `pgerrors_${randomBytes(4).toString('hex')}`;
  let db: DataSource;
  const failure = (sql: string, params: unknown[] = []) =>
    db.query(sql, params).then(
      () => {
        throw new Error(`${sql} succeeded`);
      },
      (err: unknown) => err,
    );

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } }).initialize();
    await db.query(`CREATE SCHEMA ${schema}`);
    await db.query(`CREATE TABLE ${schema}.t (id int CONSTRAINT t_unique_id UNIQUE, n int CONSTRAINT t_positive CHECK (n > 0))`);
    await db.query(`INSERT INTO ${schema}.t VALUES (1, 1)`);
  });
  afterAll(async () => {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.destroy();
  });

  it('tells a unique violation, with the constraint it names', async () => {
    const err = await failure(`INSERT INTO ${schema}.t VALUES (1, 2)`);
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 't_unique_id')).toBe(true);
    expect(isUniqueViolation(err, 'another')).toBe(false);
    expect(isCheckViolation(err)).toBe(false);
    expect(violatedConstraint(err)).toBe('t_unique_id');
  });

  it('tells a check violation, also when it is unwrapped from TypeORM', async () => {
    const err = await failure(`INSERT INTO ${schema}.t VALUES (2, -1)`);
    expect(isCheckViolation(err, 't_positive')).toBe(true);
    expect(isUniqueViolation(err)).toBe(false);
    const driverError = (err as { driverError: unknown }).driverError;
    expect(isCheckViolation(driverError, 't_positive')).toBe(true);
    expect(postgresError(driverError).code).toBe('23514');
  });

  it('reads nothing from what is not a Postgres error', () => {
    for (const err of [new Error('boom'), null, undefined, 'text', 42]) {
      expect(isUniqueViolation(err)).toBe(false);
      expect(violatedConstraint(err)).toBeUndefined();
    }
  });
});
