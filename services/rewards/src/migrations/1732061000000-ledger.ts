import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The points ledger, modelled on TigerBeetle: accounts, immutable transfers between two accounts,
 * pending transfers (reservations) that are later posted or voided exactly once. Every transfer
 * writes its double entries through a trigger, so a transfer always balances and the entries can
 * only come from a transfer. A balance is the sum of an account's entries (view ledger_balances).
 *
 * Rules the database enforces, whatever the application does:
 * - transfers and entries are never updated or deleted (triggers refuse it);
 * - one transfer per (kind, reference): one offer-wall credit per provider transaction, one
 *   sign-up bonus per user, one reversal per credited transaction;
 * - a reversal, post or void links one earlier transfer, matches it exactly, and each transfer is
 *   linked at most once (no double settlement of a reservation, no double reversal);
 * - a reservation never takes the available balance below zero (constraint ledger_no_overdraft);
 *   a posted redemption only settles points a reservation already holds. A reversal may take a
 *   balance below zero (product-decisions.md);
 * - a closed account (deleted user) takes no new credit and no new reservation.
 */
export class Ledger1732061000000 implements MigrationInterface {
  name = 'Ledger1732061000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid UNIQUE,
        code text UNIQUE CHECK (code ~ '^[a-z_]+$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        CONSTRAINT ledger_accounts_one_owner CHECK ((user_id IS NULL) <> (code IS NULL))
      )`);
    await q.query(`INSERT INTO ledger_accounts (code) VALUES ('signup_bonus'), ('offerwalls'), ('redemptions')`);

    await q.query(`
      CREATE TABLE ledger_transfers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        kind text NOT NULL CHECK (kind IN ('signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release')),
        debit_account_id uuid NOT NULL REFERENCES ledger_accounts (id),
        credit_account_id uuid NOT NULL REFERENCES ledger_accounts (id),
        amount bigint NOT NULL CHECK (amount > 0),
        reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 256),
        linked_id uuid REFERENCES ledger_transfers (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_transfers_two_accounts CHECK (debit_account_id <> credit_account_id),
        CONSTRAINT ledger_transfers_link_required CHECK ((kind IN ('offerwall_reversal', 'redemption', 'release')) = (linked_id IS NOT NULL)),
        CONSTRAINT ledger_transfers_unique_reference UNIQUE (kind, reference)
      )`);
    await q.query('CREATE UNIQUE INDEX ledger_transfers_linked_once ON ledger_transfers (linked_id) WHERE linked_id IS NOT NULL');

    await q.query(`
      CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transfer_id uuid NOT NULL REFERENCES ledger_transfers (id),
        account_id uuid NOT NULL REFERENCES ledger_accounts (id),
        layer text NOT NULL CHECK (layer IN ('posted', 'pending')),
        amount bigint NOT NULL CHECK (amount <> 0)
      )`);
    await q.query('CREATE INDEX ledger_entries_by_account ON ledger_entries (account_id) INCLUDE (layer, amount)');
    await q.query('CREATE INDEX ledger_entries_by_transfer ON ledger_entries (transfer_id)');

    await q.query(`
      CREATE VIEW ledger_balances AS
        SELECT a.id AS account_id, a.user_id, a.code,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0)::bigint AS posted,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'pending'), 0)::bigint AS pending,
               COALESCE(sum(e.amount), 0)::bigint AS available
          FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         GROUP BY a.id, a.user_id, a.code`);

    await q.query(`
      CREATE FUNCTION ledger_check_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        linked ledger_transfers%ROWTYPE;
        user_side uuid := CASE WHEN NEW.kind IN ('signup_bonus', 'offerwall_credit') THEN NEW.credit_account_id ELSE NEW.debit_account_id END;
        available bigint;
      BEGIN
        IF NEW.kind IN ('signup_bonus', 'offerwall_credit', 'reservation')
           AND EXISTS (SELECT 1 FROM ledger_accounts WHERE id = user_side AND closed_at IS NOT NULL) THEN
          RAISE EXCEPTION 'ledger account % is closed', user_side USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_account_closed';
        END IF;

        IF NEW.linked_id IS NOT NULL THEN
          SELECT * INTO STRICT linked FROM ledger_transfers WHERE id = NEW.linked_id;
          IF NEW.kind = 'offerwall_reversal' AND NOT (linked.kind = 'offerwall_credit'
               AND NEW.debit_account_id = linked.credit_account_id AND NEW.credit_account_id = linked.debit_account_id AND NEW.amount = linked.amount) THEN
            RAISE EXCEPTION 'a reversal must take back exactly one credit' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_reversal_matches_credit';
          END IF;
          IF NEW.kind IN ('redemption', 'release') AND NOT (linked.kind = 'reservation'
               AND NEW.debit_account_id = linked.debit_account_id AND NEW.credit_account_id = linked.credit_account_id AND NEW.amount = linked.amount) THEN
            RAISE EXCEPTION 'a post or void must settle exactly one reservation' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_settlement_matches_reservation';
          END IF;
        END IF;

        IF NEW.kind = 'reservation' THEN
          -- Reservations on one account take turns; the sum below then sees every committed entry.
          PERFORM 1 FROM ledger_accounts WHERE id = NEW.debit_account_id FOR UPDATE;
          SELECT COALESCE(sum(amount), 0) INTO available FROM ledger_entries WHERE account_id = NEW.debit_account_id;
          IF available < NEW.amount THEN
            RAISE EXCEPTION 'insufficient points: % available, % requested', available, NEW.amount
              USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_no_overdraft', DETAIL = available::text;
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_transfers_check BEFORE INSERT ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_check_transfer()',
    );

    // Entries per kind: a transfer moves `amount` from its debit to its credit account on the
    // posted layer, or the pending layer for a reservation. Posting or voiding first undoes the
    // reservation's pending entries; posting then books them on the posted layer.
    await q.query(`
      CREATE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
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

    await q.query(`
      CREATE FUNCTION ledger_entries_from_transfers_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF pg_trigger_depth() < 2 THEN
          RAISE EXCEPTION 'ledger entries are written by transfers only' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_entries_origin BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entries_from_transfers_only()',
    );

    await q.query(`
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of ['ledger_transfers', 'ledger_entries']) {
      await q.query(
        `CREATE TRIGGER ${table}_immutable BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`,
      );
      await q.query(
        `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`,
      );
    }

    // Accounts are kept forever; the only change they accept is being closed, once.
    await q.query(`
      CREATE FUNCTION ledger_accounts_close_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.code IS DISTINCT FROM OLD.code
           OR NEW.created_at <> OLD.created_at OR OLD.closed_at IS NOT NULL THEN
          RAISE EXCEPTION 'ledger accounts can only be closed, once' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_accounts_guard BEFORE UPDATE OR DELETE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_accounts_close_only()',
    );
    await q.query(
      'CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW ledger_balances');
    await q.query('DROP TABLE ledger_entries');
    await q.query('DROP TABLE ledger_transfers');
    await q.query('DROP TABLE ledger_accounts');
    for (const fn of [
      'ledger_check_transfer',
      'ledger_write_entries',
      'ledger_entries_from_transfers_only',
      'ledger_append_only',
      'ledger_accounts_close_only',
    ]) {
      await q.query(`DROP FUNCTION ${fn}()`);
    }
  }
}
