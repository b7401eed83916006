import { MigrationInterface, QueryRunner } from 'typeorm';

/** The entries of a statement's transfers, as migration 1734400000000 writes them. */
const WRITE_ENTRIES_BEFORE = `
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
 * The entries with held credits. Whether a transfer books on the held layer:
 * - a held credit (`held_until` set) books its points there, not on the posted layer;
 * - a reversal books there when the credit it takes back is held and not yet released: it cancels
 *   the held points and leaves the spendable balance alone (no debt). The statement that inserts
 *   the reversal has taken the user's account row (the check trigger), so a release of the same
 *   credit committed before is seen and one started later waits for this one to commit;
 * - a release (`hold_release`) first undoes the credit's held entries, then books the same points
 *   on the posted layer: the post of a pending transfer, as a redemption posts a reservation.
 */
export const WRITE_ENTRIES = `
        INSERT INTO ledger_entries (transfer_id, account_id, layer, amount)
        SELECT t.id, e.account_id, e.layer, e.amount
          FROM new_transfers t
         CROSS JOIN LATERAL (SELECT CASE
             WHEN t.kind = 'offerwall_credit' THEN t.held_until IS NOT NULL
             WHEN t.kind = 'offerwall_reversal' THEN EXISTS (
               SELECT 1 FROM ledger_transfers c WHERE c.id = t.linked_id AND c.held_until IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.kind = 'hold_release' AND r.reference = c.id::text))
             ELSE false END AS held) h
         CROSS JOIN LATERAL (VALUES
           (t.debit_account_id, 'pending', t.amount, t.kind IN ('redemption', 'release')),
           (t.credit_account_id, 'pending', -t.amount, t.kind IN ('redemption', 'release')),
           (t.debit_account_id, 'held', t.amount, t.kind = 'hold_release'),
           (t.credit_account_id, 'held', -t.amount, t.kind = 'hold_release'),
           (t.debit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' WHEN h.held THEN 'held' ELSE 'posted' END, -t.amount, t.kind <> 'release'),
           (t.credit_account_id, CASE WHEN t.kind = 'reservation' THEN 'pending' WHEN h.held THEN 'held' ELSE 'posted' END, t.amount, t.kind <> 'release')
         ) AS e(account_id, layer, amount, wanted)
         WHERE e.wanted`;

/** ledger_write_entries: the entries, then each touched user account's sums, as migration 1734400000000 adds them. */
export const writeEntriesFunction = (entries: string, held: boolean) => `
      CREATE OR REPLACE FUNCTION ledger_write_entries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH written AS (${entries}
          RETURNING account_id, layer, amount
        ), per_account AS (
          SELECT account_id, COALESCE(sum(amount) FILTER (WHERE layer = 'posted'), 0) AS posted,
                 COALESCE(sum(amount) FILTER (WHERE layer = 'pending'), 0) AS pending,${held ? `
                 COALESCE(sum(amount) FILTER (WHERE layer = 'held'), 0) AS held,` : ''} count(*) AS entries
            FROM written GROUP BY account_id
        )
        INSERT INTO ledger_user_balances AS b (account_id, posted, pending,${held ? ' held,' : ''} entries)
        SELECT p.account_id, p.posted, p.pending,${held ? ' p.held,' : ''} p.entries
          FROM per_account p
         WHERE (SELECT a.user_id FROM ledger_accounts a WHERE a.id = p.account_id) IS NOT NULL
         ORDER BY p.account_id
        ON CONFLICT (account_id) DO UPDATE
          SET posted = b.posted + EXCLUDED.posted, pending = b.pending + EXCLUDED.pending,${held ? ' held = b.held + EXCLUDED.held,' : ''} entries = b.entries + EXCLUDED.entries;
        RETURN NULL;
      END $$`;

/** ledger_check_transfer as migration 1734400000000 left it, with `extra` checks before the overdraft check. */
const checkTransferFunction = (extra: string) => `
      CREATE OR REPLACE FUNCTION ledger_check_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        linked ledger_transfers%ROWTYPE;
        user_side uuid := CASE WHEN NEW.kind IN ('signup_bonus', 'offerwall_credit') THEN NEW.credit_account_id ELSE NEW.debit_account_id END;
        available bigint;
        user_account boolean;
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
${extra}
        IF NEW.kind = 'reservation' THEN
          -- Reservations on one account take turns, after every other writer of its balance (see
          -- migration 1734400000000); the statements below then see every committed change.
          SELECT user_id IS NOT NULL INTO user_account FROM ledger_accounts WHERE id = NEW.debit_account_id FOR UPDATE;
          IF user_account THEN
            SELECT COALESCE((SELECT posted + pending FROM ledger_user_balances WHERE account_id = NEW.debit_account_id), 0) INTO available;
          ELSE
            SELECT COALESCE(sum(amount), 0) INTO available FROM ledger_entries WHERE account_id = NEW.debit_account_id;
          END IF;
          IF available < NEW.amount THEN
            RAISE EXCEPTION 'insufficient points: % available, % requested', available, NEW.amount
              USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_no_overdraft', DETAIL = available::text;
          END IF;
        END IF;
        RETURN NEW;
      END $$`;

/**
 * A release settles one held credit of the same accounts and amount, once it is due and unless it
 * was reversed; a reversal and a release of one credit take turns on the user's account row (FOR
 * NO KEY UPDATE, the lock `BalanceAnnouncements.lock` takes first in the service), so whichever
 * commits second sees the first: a release after a reversal is refused here, and a reversal after
 * a release books on the posted layer (the entries trigger).
 */
const HOLD_CHECKS = `
        IF NEW.kind = 'offerwall_reversal' THEN
          PERFORM 1 FROM ledger_accounts WHERE id = NEW.debit_account_id FOR NO KEY UPDATE;
        END IF;
        IF NEW.kind = 'hold_release' THEN
          PERFORM 1 FROM ledger_accounts WHERE id = NEW.credit_account_id FOR NO KEY UPDATE;
          SELECT * INTO linked FROM ledger_transfers WHERE id = NEW.reference::uuid;
          IF NOT FOUND OR NOT (linked.kind = 'offerwall_credit' AND linked.held_until IS NOT NULL
               AND NEW.debit_account_id = linked.debit_account_id AND NEW.credit_account_id = linked.credit_account_id AND NEW.amount = linked.amount) THEN
            RAISE EXCEPTION 'a release must settle exactly one held credit' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_release_matches_held_credit';
          END IF;
          IF EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.linked_id = linked.id AND r.kind = 'offerwall_reversal') THEN
            RAISE EXCEPTION 'held credit % was reversed', linked.id USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_release_of_reversed_credit';
          END IF;
          IF linked.held_until > now() THEN
            RAISE EXCEPTION 'held credit % is held until %', linked.id, linked.held_until USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_release_not_due';
          END IF;
        END IF;
`;

/**
 * Held credits (docs/earning.md, "Held credits"): an offer-wall credit at or above a threshold is
 * held for a while before it can be spent, because walls reverse fraudulent conversions days after
 * crediting them while the eSIM supplier is paid the moment points are redeemed.
 *
 * - A held credit is an `offerwall_credit` with `held_until` set: its entries go on a third layer,
 *   `held`, which the spendable balance (`available` = posted + pending) leaves out. The overdraft
 *   check of a reservation reads posted + pending only, so no reservation can spend held points,
 *   whatever races: that check runs under the account's row lock (migration 1734400000000).
 * - `hold_release` moves a held credit's points to the posted layer, once: its reference is the
 *   credit's id (one per (kind, reference)), and the check trigger refuses a release of anything
 *   but a due, unreversed held credit of the same accounts and amount.
 * - A reversal of a held credit cancels the held points (held layer) and leaves no debt; of a
 *   released or never-held credit it takes posted points back, as before.
 * - `ledger_holds` lists the held credits not yet released or reversed, by when they are due:
 *   the release job's work list and the user's next releases. Written only by the transfers'
 *   trigger, in the statement that holds, releases or reverses the credit.
 */
export class HeldCredits1736200000000 implements MigrationInterface {
  name = 'HeldCredits1736200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ledger_transfers ADD COLUMN held_until timestamptz');
    await q.query(`ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check`);
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check
      CHECK (kind IN ('signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release', 'hold_release'))`);
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_held_credits_only
      CHECK (held_until IS NULL OR kind = 'offerwall_credit')`);
    await q.query('ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_layer_check');
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_layer_check CHECK (layer IN ('posted', 'pending', 'held'))`);
    await q.query('ALTER TABLE ledger_user_balances ADD COLUMN held bigint NOT NULL DEFAULT 0');

    await q.query(`
      CREATE TABLE ledger_holds (
        credit_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
        account_id uuid NOT NULL REFERENCES ledger_accounts (id),
        amount bigint NOT NULL CHECK (amount > 0),
        available_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX ledger_holds_due ON ledger_holds (available_at)');
    await q.query('CREATE INDEX ledger_holds_by_account ON ledger_holds (account_id, available_at)');
    await q.query(`
      CREATE FUNCTION ledger_track_holds() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ledger_holds (credit_id, account_id, amount, available_at)
        SELECT t.id, t.credit_account_id, t.amount, t.held_until FROM new_transfers t
         WHERE t.kind = 'offerwall_credit' AND t.held_until IS NOT NULL;
        DELETE FROM ledger_holds h USING new_transfers t
         WHERE h.credit_id = CASE t.kind WHEN 'hold_release' THEN t.reference::uuid WHEN 'offerwall_reversal' THEN t.linked_id END;
        RETURN NULL;
      END $$`);
    await q.query(
      'CREATE TRIGGER ledger_transfers_holds AFTER INSERT ON ledger_transfers REFERENCING NEW TABLE AS new_transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_track_holds()',
    );

    await q.query(writeEntriesFunction(WRITE_ENTRIES, true));
    await q.query(checkTransferFunction(HOLD_CHECKS));
    await q.query('DROP TRIGGER ledger_transfers_check ON ledger_transfers');
    await q.query(
      `CREATE TRIGGER ledger_transfers_check BEFORE INSERT ON ledger_transfers FOR EACH ROW
         WHEN (NEW.linked_id IS NOT NULL OR NEW.kind IN ('reservation', 'hold_release')) EXECUTE FUNCTION ledger_check_transfer()`,
    );

    // `available` stays what can be spent; `held` is what waits for its release.
    await q.query(`
      CREATE OR REPLACE VIEW ledger_balances AS
        SELECT a.id AS account_id, a.user_id, a.code,
               COALESCE(b.posted, 0)::bigint AS posted,
               COALESCE(b.pending, 0)::bigint AS pending,
               COALESCE(b.posted + b.pending, 0)::bigint AS available,
               COALESCE(b.held, 0)::bigint AS held
          FROM ledger_accounts a LEFT JOIN ledger_user_balances b ON b.account_id = a.id
         WHERE a.user_id IS NOT NULL
        UNION ALL
        SELECT a.id, a.user_id, a.code,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'posted'), 0)::bigint,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'pending'), 0)::bigint,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer <> 'held'), 0)::bigint,
               COALESCE(sum(e.amount) FILTER (WHERE e.layer = 'held'), 0)::bigint
          FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         WHERE a.user_id IS NULL
         GROUP BY a.id, a.user_id, a.code`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW ledger_balances');
    await q.query(`
      CREATE VIEW ledger_balances AS
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
    await q.query('DROP TRIGGER ledger_transfers_check ON ledger_transfers');
    await q.query(
      `CREATE TRIGGER ledger_transfers_check BEFORE INSERT ON ledger_transfers FOR EACH ROW
         WHEN (NEW.linked_id IS NOT NULL OR NEW.kind = 'reservation') EXECUTE FUNCTION ledger_check_transfer()`,
    );
    await q.query(checkTransferFunction(''));
    await q.query(writeEntriesFunction(WRITE_ENTRIES_BEFORE, false));
    await q.query('DROP TRIGGER ledger_transfers_holds ON ledger_transfers');
    await q.query('DROP FUNCTION ledger_track_holds()');
    await q.query('DROP TABLE ledger_holds');
    await q.query('ALTER TABLE ledger_user_balances DROP COLUMN held');
    // Held entries and releases cannot be undone without rewriting the append-only ledger.
    await q.query('ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_layer_check');
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_layer_check CHECK (layer IN ('posted', 'pending'))`);
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_held_credits_only');
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check');
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check
      CHECK (kind IN ('signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release'))`);
    await q.query('ALTER TABLE ledger_transfers DROP COLUMN held_until');
  }
}
