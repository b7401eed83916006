import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * A statement Postgres parses and plans once per connection instead of at every call: a named
 * prepared statement of node-postgres (`client.query({ name, text, values })`), which TypeORM's
 * `query()` cannot send. For the statements run per batch of events or postbacks: under
 * bench/postbacks.bench.mjs, a large share of Postgres' time went to parsing, rewriting and
 * planning the same few statements with new values.
 *
 * Postgres plans the first five executions for their values, then keeps a generic plan when it is
 * no worse; it replans by itself after DDL on the tables involved. The name comes from the text,
 * so one text is one statement on every connection, and two texts never share a name.
 *
 * Run it on the transaction's manager to be part of the transaction (the same connection); on a
 * DataSource it takes a connection of the pool for the one statement (autocommit).
 */
export class PreparedStatement<Row = Record<string, unknown>> {
  readonly name: string;

  constructor(readonly text: string) {
    this.name = `esim_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  }

  async run(db: DataSource | EntityManager, values: unknown[]): Promise<Row[]> {
    const inTransaction = db instanceof EntityManager ? db.queryRunner : undefined;
    const runner: QueryRunner = inTransaction ?? (db instanceof DataSource ? db : db.connection).createQueryRunner();
    try {
      // PostgresQueryRunner.connect() answers the node-postgres client it holds.
      const client = (await runner.connect()) as PoolClient;
      const result = await client.query<Row & object>({ name: this.name, text: this.text, values });
      return result.rows;
    } finally {
      if (!inTransaction) await runner.release();
    }
  }
}
