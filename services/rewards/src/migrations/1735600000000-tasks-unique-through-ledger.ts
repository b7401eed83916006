import { MigrationInterface, QueryRunner } from 'typeorm';
import { TASKS_MATCH_TRANSFERS } from './1734700000000-tasks-transfer-checked-per-statement';

/**
 * One task per provider transaction, held by the ledger instead of an index of its own. A credit
 * wrote three B-tree entries under the provider's transaction id, a random key: the ingestion's
 * accepted delivery, the ledger's unique reference and `tasks_one_per_provider_transaction`. On a
 * database past its shared_buffers, each such insert dirties a leaf page of its own, whose first
 * change after a checkpoint goes whole into the WAL (bench/postbacks.bench.mjs on a 3.4 GB
 * database: 1.1-1.2 full-page images and 9.5 KB of WAL per credit, with answer p99s of 70-1,100 ms).
 *
 * `tasks_match_transfers` now also requires what `Tasks.insertMany`'s only caller always wrote: a
 * task's transfer is the offer-wall credit of the same provider transaction (reference
 * `<provider>:<transaction id>`, `creditReference`). Two tasks of one provider transaction would then
 * need one transfer (refused by `tasks_ledger_transfer_id_key`) or two credits with the same
 * reference (refused by `ledger_transfers_unique_reference`), so the unique index adds nothing and
 * goes. Its rows were never read through it (no query looks tasks up by provider transaction;
 * reversals find them by transfer). Rows written before stay as they are: they were unique already.
 */
export class TasksUniqueThroughLedger1735600000000 implements MigrationInterface {
  name = 'TasksUniqueThroughLedger1735600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION tasks_match_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        stray record;
      BEGIN
        SELECT n.ledger_transfer_id, n.provider, n.transaction_id, t.id IS NULL AS missing INTO stray
          FROM new_tasks n LEFT JOIN ledger_transfers t ON t.id = n.ledger_transfer_id
         WHERE t.id IS NULL OR t.kind <> 'offerwall_credit' OR t.reference <> n.provider || ':' || n.transaction_id
         LIMIT 1;
        IF FOUND AND stray.missing THEN
          RAISE EXCEPTION 'task refers to ledger transfer %, which does not exist', stray.ledger_transfer_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'tasks_match_transfers';
        ELSIF FOUND THEN
          RAISE EXCEPTION 'task for % transaction % refers to ledger transfer %, which is not its credit', stray.provider, stray.transaction_id, stray.ledger_transfer_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'tasks_match_transfers';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query('ALTER TABLE tasks DROP CONSTRAINT tasks_one_per_provider_transaction');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks ADD CONSTRAINT tasks_one_per_provider_transaction UNIQUE (provider, transaction_id)');
    await q.query(TASKS_MATCH_TRANSFERS);
  }
}
