import { MigrationInterface, QueryRunner } from 'typeorm';

/** The entries of a statement's transfers, as migration 1734300000000 writes them (one row of VALUES per possible entry). */
const WRITE_ENTRIES = `
        INSERT INTO ledger_entries (transfer_id, account_id, layer, amount)
        SELECT t.id, e.account_id, e.layer, e.amount
          FROM new_transfers t
         CROSS JOIN LATERAL (VALUES
           (t.debit_account_id, 'pending', t.amount, t.kind IN ('redemption', 'release')),
           (t.credit_account_id, 'pending', -t.amount, t.kind IN ('redemption', 'release')),
           (t.debit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' ELSE 'posted' END, -t.amount, t.kind <> 'release'),
           (t.credit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' ELSE 'posted' END, t.amount, t.kind <> 'release')
         ) AS e(account_id, layer, amount, wanted)
         WHERE e.wanted`;

/**
 * ledger_check_transfer of migration 1732061000000 up to the overdraft check, which is all this
 * migration changes (`declare`: its own variables). Kept to the character: `down` restores it.
 */
const checkTransferHead = (declare = '') => `
      DECLARE
        linked ledger_transfers%ROWTYPE;
        user_side uuid := CASE WHEN NEW.kind IN ('signup_bonus', 'offerwall_credit') THEN NEW.credit_account_id ELSE NEW.debit_account_id END;
        available bigint;${declare}
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
`;

const CHECK_TRANSFER_TAIL = `
          IF available < NEW.amount THEN
            RAISE EXCEPTION 'insufficient points: % available, % requested', available, NEW.amount
              USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_no_overdraft', DETAIL = available::text;
          END IF;
        END IF;
        RETURN NEW;
      END`;

/**
 * Balances the ledger keeps for user accounts, instead of summing an account's whole history on
 * every read: a user who earned for a year has thousands of entries, and each batch of credits
 * read them all (BalanceChanged's points and version), as did every reservation's overdraft check
 * and every pass of `PointsRank`.
 *
 * `ledger_user_balances` holds, per user account with entries, the sums of its posted and pending
 * entries and how many entries it has (BalanceChanged's version). It is written in the same
 * statement as the entries, by the entries trigger (`ledger_write_entries`, migration
 * 1734300000000), as one upsert per touched user account per statement, from the entries that
 * statement just wrote (`RETURNING`), so a row is by construction the sum of its account's entries.
 * The balances are not a second source of truth that could drift:
 * - nothing else can write them: a statement trigger refuses any INSERT or UPDATE not issued from
 *   inside a trigger (the test of the entries' origin check: pg_trigger_depth() is 2 inside the
 *   entries trigger), and DELETE and TRUNCATE always;
 * - the entries stay, append-only, and `expectLedgerInvariants` (security check 14) compares every
 *   row with them.
 *
 * System accounts (`offerwalls`, `signup_bonus`, `redemptions`) get no row: every credit touches
 * one of them, so a maintained row would be updated, and locked until commit, by every transaction
 * of the ledger, serialising them all. Their balance is still the sum of their entries
 * (`ledger_balances` keeps summing for them; nothing on a hot path reads it).
 *
 * Locks. Every transaction that writes a user's balance row holds that user's account row first:
 * the credits, posts and voids take it with `BalanceAnnouncements.lock` (FOR NO KEY UPDATE, in
 * account order, before their first ledger write), a reservation with FOR UPDATE in the check
 * below, and any transfer at least FOR KEY SHARE through its foreign key, which Postgres checks
 * (row triggers) before the entries trigger (a statement trigger) runs. So one order holds
 * everywhere: account row, then balance row; and balance rows are upserted in account order within
 * a statement.
 *
 * The overdraft check keeps its lock on the account row (FOR UPDATE) and reads the balance row
 * under it, without locking that row:
 * - FOR UPDATE on the account conflicts with every lock above, so once it is granted, every other
 *   transaction that changed the account's balance has committed (or rolled back); the next
 *   statement of the function takes a new snapshot (READ COMMITTED) and reads the row they left;
 *   the transaction's own earlier statements are visible to it anyway;
 * - locking the balance row instead would reverse the order for a reservation: `Redemptions`
 *   reserves, then announces, which takes the account row; a credit batch holding that account row
 *   and waiting for the balance row would then deadlock with it. And an account without entries
 *   has no balance row to lock yet;
 * - the balance row lock therefore never waits in the service (every writer already queued on the
 *   account row); it only orders writers that skip `BalanceAnnouncements.lock`.
 *
 * Half of each page of the table is left free (fillfactor): an update of a row then stays on its
 * page (a HOT update) and adds no index entry; at the default, nearly every credit added one.
 *
 * The backfill runs under a SHARE lock on the transfers, so no transfer written by the previous
 * trigger commits between the backfill's snapshot and this migration's commit.
 */
export class LedgerUserBalances1734400000000 implements MigrationInterface {
  name = 'LedgerUserBalances1734400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('LOCK TABLE ledger_transfers IN SHARE MODE');
    await q.query(`
      CREATE TABLE ledger_user_balances (
        account_id uuid PRIMARY KEY REFERENCES ledger_accounts (id),
        posted bigint NOT NULL,
        pending bigint NOT NULL,
        entries bigint NOT NULL CHECK (entries > 0)
      ) WITH (fillfactor = 50)`);
    await q.query(`
      INSERT INTO ledger_user_balances (account_id, posted, pending, entries)
      SELECT e.account_id, COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0), COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'pending'), 0), count(*)
        FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.user_id IS NOT NULL
       GROUP BY e.account_id`);

    await q.query(`
      CREATE FUNCTION ledger_user_balances_from_entries_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'TRUNCATE') OR pg_trigger_depth() < 2 THEN
          RAISE EXCEPTION 'ledger balances are written by the ledger''s entries trigger only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_user_balances_origin BEFORE INSERT OR UPDATE OR DELETE ON ledger_user_balances FOR EACH STATEMENT EXECUTE FUNCTION ledger_user_balances_from_entries_only()',
    );
    await q.query(
      'CREATE TRIGGER ledger_user_balances_no_truncate BEFORE TRUNCATE ON ledger_user_balances FOR EACH STATEMENT EXECUTE FUNCTION ledger_user_balances_from_entries_only()',
    );

    // The statement's entries, then each touched user account's share of them added to its row, in
    // account order. A subquery per account, not a join: the planner cannot tell how many accounts a
    // statement touches, and joined it scanned every account for a batch of 100 credits.
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH written AS (${WRITE_ENTRIES}
          RETURNING account_id, layer, amount
        ), per_account AS (
          SELECT account_id, COALESCE(sum(amount) FILTER (WHERE layer = 'posted'), 0) AS posted,
                 COALESCE(sum(amount) FILTER (WHERE layer = 'pending'), 0) AS pending, count(*) AS entries
            FROM written GROUP BY account_id
        )
        INSERT INTO ledger_user_balances AS b (account_id, posted, pending, entries)
        SELECT p.account_id, p.posted, p.pending, p.entries
          FROM per_account p
         WHERE (SELECT a.user_id FROM ledger_accounts a WHERE a.id = p.account_id) IS NOT NULL
         ORDER BY p.account_id
        ON CONFLICT (account_id) DO UPDATE
          SET posted = b.posted + EXCLUDED.posted, pending = b.pending + EXCLUDED.pending, entries = b.entries + EXCLUDED.entries;
        RETURN NULL;
      END $$`);

    // Only the overdraft check changes: a user account's available points come from its row.
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_check_transfer() RETURNS trigger LANGUAGE plpgsql AS $$${checkTransferHead(`
        user_account boolean;`)}
        IF NEW.kind = 'reservation' THEN
          -- Reservations on one account take turns, after every other writer of its balance (see
          -- migration 1734400000000); the statements below then see every committed change.
          SELECT user_id IS NOT NULL INTO user_account FROM ledger_accounts WHERE id = NEW.debit_account_id FOR UPDATE;
          IF user_account THEN
            SELECT COALESCE((SELECT posted + pending FROM ledger_user_balances WHERE account_id = NEW.debit_account_id), 0) INTO available;
          ELSE
            SELECT COALESCE(sum(amount), 0) INTO available FROM ledger_entries WHERE account_id = NEW.debit_account_id;
          END IF;${CHECK_TRANSFER_TAIL} $$`);

    // Same name and columns; user accounts read their row, system accounts still sum their entries.
    await q.query(`
      CREATE OR REPLACE VIEW ledger_balances AS
        SELECT a.id AS account_id, a.user_id, a.code,
               COALESCE(b.posted, 0)::bigint AS posted,
               COALESCE(b.pending, 0)::bigint AS pending,
               COALESCE(b.posted + b.pending, 0)::bigint AS available
          FROM ledger_accounts a LEFT JOIN ledger_user_balances b ON b.account_id = a.id
         WHERE a.user_id IS NOT NULL
        UNION ALL
        SELECT a.id, a.user_id, a.code,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0)::bigint,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'pending'), 0)::bigint,
               COALESCE(sum(e.amount), 0)::bigint
          FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         WHERE a.user_id IS NULL
         GROUP BY a.id, a.user_id, a.code`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE VIEW ledger_balances AS
        SELECT a.id AS account_id, a.user_id, a.code,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0)::bigint AS posted,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'pending'), 0)::bigint AS pending,
               COALESCE(sum(e.amount), 0)::bigint AS available
          FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         GROUP BY a.id, a.user_id, a.code`);
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_check_transfer() RETURNS trigger LANGUAGE plpgsql AS $$${checkTransferHead()}
        IF NEW.kind = 'reservation' THEN
          -- Reservations on one account take turns; the sum below then sees every committed entry.
          PERFORM 1 FROM ledger_accounts WHERE id = NEW.debit_account_id FOR UPDATE;
          SELECT COALESCE(sum(amount), 0) INTO available FROM ledger_entries WHERE account_id = NEW.debit_account_id;${CHECK_TRANSFER_TAIL} $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN${WRITE_ENTRIES};
        RETURN NULL;
      END $$`);
    await q.query('DROP TABLE ledger_user_balances');
    await q.query('DROP FUNCTION ledger_user_balances_from_entries_only()');
  }
}
