import { MigrationInterface, QueryRunner } from 'typeorm';
import { WRITE_ENTRIES, writeEntriesFunction } from './1736200000000-held-credits';

const KINDS_BEFORE = `'signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release', 'hold_release', 'claim_credit', 'referral_bonus'`;

const APPEND_ONLY = `
      CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`;

/**
 * Transaction records are deleted after TRANSACTION_RETENTION_YEARS (docs/accounts.md,
 * "Retention"), the ledger included; a balance must not change when they go. So old entries are
 * never simply deleted: per user account, the settled transfers older than a cutoff are replaced,
 * in one statement, by one `carried_forward` transfer from (or to) the new system account
 * `carried_forward` that holds the sum of their posted entries on the user's account.
 *
 * What may be folded (`ledger_foldable(account, cutoff)`): transfers are taken by group, a credit
 * with its reversal and its release, a reservation with its post or void; a group goes only when
 * every member is older than the cutoff, a reservation is settled, a held credit is released or
 * reversed (so its pending and held entries sum to zero: nothing pending or held is ever folded),
 * and no other record still names a member (a task, a redemption, a claim, a credit's details, a
 * hold). Those records have their own retention (rewards-retention.ts), which runs first.
 *
 * The database enforces it, whatever the application does:
 * - transfers and entries stay append-only, except a DELETE issued by the fold trigger below
 *   (inside a trigger, pg_trigger_depth() >= 2, with the transaction-local flag it sets around its
 *   own DELETEs), the way entries and balances only come from the ledger's own triggers;
 * - the fold trigger folds, for each `carried_forward` it inserts, exactly the foldable transfers
 *   of its account before `carried_until`, and refuses (ledger_carried_forward_matches) an amount
 *   other than their posted sum on the account, or any pending or held remainder: the balance
 *   (posted, pending, held) is the same before and after, and the whole ledger still sums to zero
 *   (each folded transfer balanced, the carried one too);
 * - a `carried_forward` may carry 0 (a history that nets to nothing): it writes no entries then;
 * - `ledger_user_balances.folded` counts the entries folded away, so `entries` keeps counting every
 *   entry ever written: it is BalanceChanged's version, which must only move on.
 *
 * The account's row is locked by the retention statement (FOR NO KEY UPDATE, as a credit batch
 * does) before it inserts, so no credit, post or void of that account runs meanwhile; the trigger
 * reads the foldable set once, after that lock.
 */
export class LedgerCarriedForward1739500000000 implements MigrationInterface {
  name = 'LedgerCarriedForward1739500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check');
    await q.query(
      `ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'carried_forward'))`,
    );
    await q.query(`INSERT INTO ledger_accounts (code) VALUES ('carried_forward')`);
    await q.query('ALTER TABLE ledger_transfers ADD COLUMN carried_until timestamptz');
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_carried_until
      CHECK ((kind = 'carried_forward') = (carried_until IS NOT NULL) AND (carried_until IS NULL OR carried_until <= created_at))`);
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_amount_check');
    await q.query(
      `ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_amount_check CHECK (amount > 0 OR (kind = 'carried_forward' AND amount = 0))`,
    );
    await q.query('CREATE INDEX ledger_transfers_by_age ON ledger_transfers (created_at)');
    await q.query('ALTER TABLE ledger_user_balances ADD COLUMN folded bigint NOT NULL DEFAULT 0 CHECK (folded >= 0)');
    await q.query(writeEntriesFunction(`${WRITE_ENTRIES} AND t.amount > 0`, true));

    await q.query(`
      CREATE FUNCTION ledger_foldable(account uuid, cutoff timestamptz) RETURNS TABLE (id uuid) LANGUAGE sql STABLE AS $$
        WITH mine AS (
          SELECT t.id, t.kind, t.created_at, t.held_until,
                 CASE WHEN t.kind = 'hold_release' THEN t.reference::uuid ELSE COALESCE(t.linked_id, t.id) END AS root,
                 (EXISTS (SELECT 1 FROM tasks x WHERE x.ledger_transfer_id = t.id)
                  OR EXISTS (SELECT 1 FROM redemptions x WHERE x.reservation_id = t.id)
                  OR EXISTS (SELECT 1 FROM credit_claims x WHERE x.transfer_id = t.id)
                  OR EXISTS (SELECT 1 FROM offerwall_credit_details x WHERE x.credit_id = t.id)
                  OR EXISTS (SELECT 1 FROM ledger_holds x WHERE x.credit_id = t.id)) AS named
            FROM ledger_transfers t
           WHERE t.debit_account_id = account OR t.credit_account_id = account
        ), groups AS (
          SELECT root FROM mine GROUP BY root
          HAVING bool_and(created_at < cutoff) AND NOT bool_or(named)
             AND (NOT bool_or(kind = 'reservation') OR bool_or(kind IN ('redemption', 'release')))
             AND (NOT bool_or(kind = 'offerwall_credit' AND held_until IS NOT NULL) OR bool_or(kind IN ('hold_release', 'offerwall_reversal')))
        )
        SELECT m.id FROM mine m JOIN groups g ON g.root = m.root
      $$`);

    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND TG_TABLE_NAME IN ('ledger_transfers', 'ledger_entries') AND pg_trigger_depth() >= 2
           AND current_setting('ledger.folding', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);

    await q.query(`
      CREATE FUNCTION ledger_fold_carried_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        cf record;
        account uuid;
        ids uuid[];
        sums record;
      BEGIN
        FOR cf IN SELECT * FROM new_transfers WHERE kind = 'carried_forward' ORDER BY id LOOP
          SELECT a.id INTO account FROM ledger_accounts a
           WHERE a.id IN (cf.debit_account_id, cf.credit_account_id) AND a.user_id IS NOT NULL;
          IF account IS NULL OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.code = 'carried_forward'
               AND a.id = CASE WHEN cf.credit_account_id = account THEN cf.debit_account_id ELSE cf.credit_account_id END) THEN
            RAISE EXCEPTION 'a carried-forward balance moves between a user account and carried_forward' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_carried_forward_matches';
          END IF;
          SELECT array_agg(f.id) INTO ids FROM ledger_foldable(account, cf.carried_until) f WHERE f.id <> cf.id;
          SELECT COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0) AS posted,
                 COALESCE(sum(e.amount) FILTER (WHERE e.layer <> 'posted'), 0) AS unsettled, count(*) AS n
            INTO sums FROM ledger_entries e WHERE e.account_id = account AND e.transfer_id = ANY (COALESCE(ids, '{}'));
          IF sums.unsettled <> 0 OR sums.posted <> (CASE WHEN cf.credit_account_id = account THEN cf.amount ELSE -cf.amount END) THEN
            RAISE EXCEPTION 'a carried-forward balance must be the sum of the settled entries it replaces: %, not %', sums.posted, cf.amount
              USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_carried_forward_matches';
          END IF;
          IF ids IS NOT NULL THEN
            PERFORM set_config('ledger.folding', 'on', true);
            DELETE FROM ledger_entries WHERE transfer_id = ANY (ids);
            DELETE FROM ledger_transfers WHERE id = ANY (ids);
            PERFORM set_config('ledger.folding', 'off', true);
            UPDATE ledger_user_balances SET posted = posted - sums.posted, folded = folded + sums.n WHERE account_id = account;
          END IF;
        END LOOP;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER ledger_transfers_fold AFTER INSERT ON ledger_transfers REFERENCING NEW TABLE AS new_transfers
         FOR EACH STATEMENT EXECUTE FUNCTION ledger_fold_carried_forward()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_transfers_fold ON ledger_transfers');
    await q.query('DROP FUNCTION ledger_fold_carried_forward()');
    await q.query(APPEND_ONLY);
    await q.query('DROP FUNCTION ledger_foldable(uuid, timestamptz)');
    await q.query(writeEntriesFunction(WRITE_ENTRIES, true));
    await q.query('ALTER TABLE ledger_user_balances DROP COLUMN folded');
    await q.query('DROP INDEX ledger_transfers_by_age');
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_amount_check');
    await q.query('ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_amount_check CHECK (amount > 0)');
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_carried_until');
    await q.query('ALTER TABLE ledger_transfers DROP COLUMN carried_until');
    await q.query(`ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check`);
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
  }
}
