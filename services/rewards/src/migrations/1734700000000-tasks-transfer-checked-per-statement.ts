import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every new task's transfer exists. Migration 1735600000000 also checks that it is the task's own
 * credit, and restores this function in its `down`.
 */
export const TASKS_MATCH_TRANSFERS = `
      CREATE OR REPLACE FUNCTION tasks_match_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        stray uuid;
      BEGIN
        SELECT n.ledger_transfer_id INTO stray
          FROM new_tasks n LEFT JOIN ledger_transfers t ON t.id = n.ledger_transfer_id
         WHERE t.id IS NULL
         LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION 'task refers to ledger transfer %, which does not exist', stray
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'tasks_match_transfers';
        END IF;
        RETURN NULL;
      END $$`;

/**
 * A task's ledger transfer is checked once per INSERT statement instead of per row, for the same
 * reasons as the entries' keys in migration 1734600000000: tasks are written by the hundred per
 * batch of offer-wall credits (`Tasks.insertMany`), and the foreign key ran one SPI query with a
 * FOR KEY SHARE lock per task, about a third of that INSERT (EXPLAIN ANALYZE, 100 tasks: 0.6-0.9
 * of 1.9-2.5 ms). What it guaranteed still holds:
 * - every new task's transfer exists (`tasks_match_transfers`, one join of the statement's rows
 *   with ledger_transfers, raising foreign_key_violation as the key did);
 * - the referenced transfer cannot go away: transfers are never deleted or truncated (migration
 *   1732061000000), which is all the key's lock protected against;
 * - a task never moves to another transfer (`tasks_transfer_fixed`): the key also checked updates
 *   of the column, and the only update tasks get is `reversed_at` (`Tasks.markReversed`).
 */
export class TasksTransferCheckedPerStatement1734700000000 implements MigrationInterface {
  name = 'TasksTransferCheckedPerStatement1734700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks DROP CONSTRAINT tasks_ledger_transfer_id_fkey');
    await q.query(TASKS_MATCH_TRANSFERS);
    await q.query(
      'CREATE TRIGGER tasks_match_transfers AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_tasks FOR EACH STATEMENT EXECUTE FUNCTION tasks_match_transfers()',
    );
    await q.query(`
      CREATE FUNCTION tasks_transfer_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'a task keeps its ledger transfer' USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'tasks_transfer_fixed';
      END $$`);
    await q.query(
      `CREATE TRIGGER tasks_transfer_fixed BEFORE UPDATE OF ledger_transfer_id ON tasks FOR EACH ROW
         WHEN (OLD.ledger_transfer_id IS DISTINCT FROM NEW.ledger_transfer_id) EXECUTE FUNCTION tasks_transfer_fixed()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER tasks_transfer_fixed ON tasks');
    await q.query('DROP FUNCTION tasks_transfer_fixed()');
    await q.query('DROP TRIGGER tasks_match_transfers ON tasks');
    await q.query('DROP FUNCTION tasks_match_transfers()');
    await q.query(
      'ALTER TABLE tasks ADD CONSTRAINT tasks_ledger_transfer_id_fkey FOREIGN KEY (ledger_transfer_id) REFERENCES ledger_transfers (id)',
    );
  }
}
