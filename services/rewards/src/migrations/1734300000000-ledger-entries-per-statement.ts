import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's entries are written once per statement instead of once per transfer: offer-wall
 * credits arrive in batches (`Ledger.creditMany`, one statement for a whole batch), and a row
 * trigger ran a plpgsql call and two INSERTs for every transfer of it. The statement trigger reads
 * the statement's transfers from its transition table and writes all their entries in one INSERT,
 * the same entries per kind as migration 1732061000000-ledger wrote.
 *
 * Nothing the other rules see changes:
 * - the entries are there when the statement ends, as before: non-deferred AFTER triggers, row or
 *   statement, all fire at the end of the statement that queued them. The overdraft check of a
 *   reservation (the BEFORE row trigger ledger_transfers_check) therefore sees the entries of every
 *   earlier statement of its transaction, and, as before, not those of earlier rows of its own
 *   statement (the ledger inserts one reservation per statement);
 * - only inserted rows reach the transition table, so a transfer that `ON CONFLICT DO NOTHING`
 *   skipped writes no entries;
 * - the foreign keys of the transfers are checked before its entries are written, as before (they
 *   are row triggers queued ahead of the statement's own); either order only decides which error a
 *   bad transfer raises, never what is written;
 * - entries still come from transfers only: the origin check runs once per INSERT statement into
 *   ledger_entries instead of once per row, with the same test (pg_trigger_depth() is 2 inside the
 *   entries trigger, 1 for a statement sent directly, COPY included). An empty direct INSERT is now
 *   refused too. The foreign keys of the entries stay: checked per row, they are about 30% of a
 *   statement of 2,000 credits, but they are what makes the database refuse an entry without its
 *   transfer or account whatever wrote it (the origin check only knows it runs inside a trigger).
 */
export class LedgerEntriesPerStatement1734300000000 implements MigrationInterface {
  name = 'LedgerEntriesPerStatement1734300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_transfers_entries ON ledger_transfers');
    // One row of VALUES per possible entry, kept when its kind has it: a post or void first undoes
    // the reservation's pending entries; every kind but a void then books its own.
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ledger_entries (transfer_id, account_id, layer, amount)
        SELECT t.id, e.account_id, e.layer, e.amount
          FROM new_transfers t
         CROSS JOIN LATERAL (VALUES
           (t.debit_account_id, 'pending', t.amount, t.kind IN ('redemption', 'release')),
           (t.credit_account_id, 'pending', -t.amount, t.kind IN ('redemption', 'release')),
           (t.debit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' ELSE 'posted' END, -t.amount, t.kind <> 'release'),
           (t.credit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' ELSE 'posted' END, t.amount, t.kind <> 'release')
         ) AS e(account_id, layer, amount, wanted)
         WHERE e.wanted;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_transfers_entries AFTER INSERT ON ledger_transfers REFERENCING NEW TABLE AS new_transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_write_entries()',
    );

    await q.query('DROP TRIGGER ledger_entries_origin ON ledger_entries');
    await q.query(
      'CREATE TRIGGER ledger_entries_origin BEFORE INSERT ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_from_transfers_only()',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_entries_origin ON ledger_entries');
    await q.query(
      'CREATE TRIGGER ledger_entries_origin BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entries_from_transfers_only()',
    );

    await q.query('DROP TRIGGER ledger_transfers_entries ON ledger_transfers');
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind IN ('redemption', 'release') THEN
          INSERT INTO ledger_entries (transfer_id, account_id, layer, amount) VALUES
            (NEW.id, NEW.debit_account_id, 'pending', NEW.amount),
            (NEW.id, NEW.credit_account_id, 'pending', -NEW.amount);
        END IF;
        IF NEW.kind <> 'release' THEN
          INSERT INTO ledger_entries (transfer_id, account_id, layer, amount) VALUES
            (NEW.id, NEW.debit_account_id, CASE WHEN NEW.kind = 'reservation' THEN 'pending' ELSE 'posted' END, -NEW.amount),
            (NEW.id, NEW.credit_account_id, CASE WHEN NEW.kind = 'reservation' THEN 'pending' ELSE 'posted' END, NEW.amount);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_transfers_entries AFTER INSERT ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_write_entries()',
    );
  }
}
