import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ledger transfers and tasks get time-ordered ids (UUIDv7) instead of random ones (v4). Both are
 * written by the hundred per batch of offer-wall credits, and their ids are keys of several
 * indexes (the transfers' primary key, the entries' `transfer_id`, the tasks' primary key and
 * `ledger_transfer_id`): random ids put every new key on a random page of each index, and after
 * every checkpoint each such page went whole into the WAL. Time-ordered ids land at the right edge.
 * The events' ids are UUIDv7 already (libs/platform, `eventId`). Postgres 15 has no uuidv7(): this
 * one overlays the millisecond clock on a random v4 and sets the version bits to 7 (RFC 9562).
 */
export class TimeOrderedIds1734500000000 implements MigrationInterface {
  name = 'TimeOrderedIds1734500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
        SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                 PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
      $$`);
    await q.query('ALTER TABLE ledger_transfers ALTER COLUMN id SET DEFAULT uuid_v7()');
    await q.query('ALTER TABLE tasks ALTER COLUMN id SET DEFAULT uuid_v7()');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks ALTER COLUMN id SET DEFAULT gen_random_uuid()');
    await q.query('ALTER TABLE ledger_transfers ALTER COLUMN id SET DEFAULT gen_random_uuid()');
    await q.query('DROP FUNCTION uuid_v7()');
  }
}
