import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two of the ledger's checks run once per statement instead of once per row. A batch of offer-wall
 * credits is one INSERT of ~100 transfers (`Ledger.creditMany`) and ~200 entries, and under
 * bench/postbacks.bench.mjs (auto_explain, log_triggers) the per-row checks were most of that
 * statement's time: of 38 ms for 84 credits, 25 ms went to the entries' two foreign keys (one SPI
 * query with a FOR KEY SHARE lock per entry and key) and 3.4 ms to the row trigger
 * `ledger_transfers_check`, which for a credit only asks whether the user's account is closed.
 *
 * 1. The entries' foreign keys become one set-based check (`ledger_entries_match_transfers`): after
 *    each INSERT into ledger_entries, every new entry must belong to an existing transfer and name
 *    one of that transfer's two accounts. That is stronger than the keys (which allowed an entry
 *    on any account) and no weaker anywhere:
 *    - a foreign key also locks the referenced row (FOR KEY SHARE) so that it cannot be deleted
 *      before the insert commits; transfers and accounts can never be deleted or truncated
 *      (migration 1732061000000: `ledger_transfers_immutable`, `ledger_accounts_guard`, the
 *      `*_no_truncate` triggers), so there is nothing to lock against;
 *    - an entry's account exists because its transfer's does: the transfers keep their foreign
 *      keys to ledger_accounts. Those stay per row on purpose: they take the account rows (FOR KEY
 *      SHARE) before the entries trigger writes the user balances, the lock order migration
 *      1734400000000 relies on;
 *    - entries are written only by the entries trigger, from the transfers of its statement (the
 *      origin check), so this check is a guard against a future trigger, not a filter.
 * 2. `ledger_transfers_check` runs per row only where it has per-row work: a transfer that links
 *    another (reversal, post, void: the link must match) and a reservation (the overdraft check
 *    under the account's lock). The closed-account rule for credits and sign-up bonuses moves to a
 *    statement trigger (`ledger_transfers_not_to_closed`) that joins the statement's transfers with
 *    the accounts once, raising the same error (check_violation, constraint ledger_account_closed)
 *    with the same message. Its query takes a new snapshot (READ COMMITTED), as the row trigger's
 *    did, after the credit batch's lock on the user's account row (`BalanceAnnouncements.lock`),
 *    which closing an account also takes: a closure commits before or after, never in between.
 *    Only inserted transfers reach the transition table: a duplicate credit that ON CONFLICT DO
 *    NOTHING skipped is no longer refused for a closed account, it is skipped, as it writes nothing.
 */
export class LedgerChecksPerStatement1734600000000 implements MigrationInterface {
  name = 'LedgerChecksPerStatement1734600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transfer_id_fkey, DROP CONSTRAINT ledger_entries_account_id_fkey',
    );
    await q.query(`
      CREATE FUNCTION ledger_entries_match_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        stray record;
      BEGIN
        SELECT e.transfer_id, e.account_id INTO stray
          FROM new_entries e LEFT JOIN ledger_transfers t ON t.id = e.transfer_id
         WHERE t.id IS NULL OR e.account_id NOT IN (t.debit_account_id, t.credit_account_id)
         LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION 'ledger entry on account % does not belong to transfer %', stray.account_id, stray.transfer_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_entries_match_transfers';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_entries_match_transfers AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_match_transfers()',
    );

    await q.query('DROP TRIGGER ledger_transfers_check ON ledger_transfers');
    await q.query(
      `CREATE TRIGGER ledger_transfers_check BEFORE INSERT ON ledger_transfers FOR EACH ROW
         WHEN (NEW.linked_id IS NOT NULL OR NEW.kind = 'reservation') EXECUTE FUNCTION ledger_check_transfer()`,
    );
    await q.query(`
      CREATE FUNCTION ledger_transfers_not_to_closed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        closed uuid;
      BEGIN
        SELECT a.id INTO closed
          FROM new_transfers t JOIN ledger_accounts a ON a.id = t.credit_account_id
         WHERE t.kind IN ('signup_bonus', 'offerwall_credit') AND a.closed_at IS NOT NULL
         LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION 'ledger account % is closed', closed USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_account_closed';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_transfers_not_to_closed AFTER INSERT ON ledger_transfers REFERENCING NEW TABLE AS new_transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_not_to_closed()',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_transfers_not_to_closed ON ledger_transfers');
    await q.query('DROP FUNCTION ledger_transfers_not_to_closed()');
    await q.query('DROP TRIGGER ledger_transfers_check ON ledger_transfers');
    await q.query(
      'CREATE TRIGGER ledger_transfers_check BEFORE INSERT ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_check_transfer()',
    );
    await q.query('DROP TRIGGER ledger_entries_match_transfers ON ledger_entries');
    await q.query('DROP FUNCTION ledger_entries_match_transfers()');
    await q.query(`
      ALTER TABLE ledger_entries
        ADD CONSTRAINT ledger_entries_transfer_id_fkey FOREIGN KEY (transfer_id) REFERENCES ledger_transfers (id),
        ADD CONSTRAINT ledger_entries_account_id_fkey FOREIGN KEY (account_id) REFERENCES ledger_accounts (id)`);
  }
}
