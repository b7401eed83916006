import { DataSource } from 'typeorm';

/**
 * Security check 14: every account's balance is the sum of its entries (computed here
 * independently of the ledger_balances view), every transfer balances on each layer with the
 * entries its kind requires, the ledger as a whole sums to zero, and users only ever hold
 * reservations against themselves (their pending layer is never positive). Once migration
 * 1734400000000 has run, the balance the ledger keeps for each user account is the sums and count
 * of its entries: a user account with entries has its row, and no other account has one. Once
 * migration 1739500000000 has run, `entries` also counts the entries a carried-forward balance
 * replaced (`folded`), and a carried-forward balance of 0 has no entries.
 */
export async function expectLedgerInvariants(db: DataSource): Promise<void> {
  // Once migration 1736200000000 has run, held points are entries too, outside `available`.
  const [{ holds }] = await db.query(`SELECT to_regclass('ledger_holds') IS NOT NULL AS holds`);
  const balances: Array<{ account_id: string; view: string; entries: string }> = await db.query(`
    SELECT b.account_id, b.available${holds ? ' + b.held' : ''} AS view,
           (SELECT COALESCE(sum(amount), 0) FROM ledger_entries e WHERE e.account_id = b.account_id) AS entries
      FROM ledger_balances b`);
  for (const b of balances)
    expect({ account: b.account_id, balance: Number(b.view) }).toEqual({ account: b.account_id, balance: Number(b.entries) });

  const unbalanced = await db.query(`
    SELECT t.id, t.kind, e.layer, sum(e.amount) AS net FROM ledger_transfers t JOIN ledger_entries e ON e.transfer_id = t.id
     GROUP BY t.id, t.kind, e.layer HAVING sum(e.amount) <> 0`);
  expect(unbalanced).toEqual([]);

  const wrongShape = await db.query(`
    SELECT t.id, t.kind, count(e.id)::int AS entries FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
     GROUP BY t.id, t.kind, t.amount HAVING count(e.id) <> CASE WHEN t.kind IN ('redemption', 'hold_release') THEN 4 WHEN t.amount = 0 THEN 0 ELSE 2 END`);
  expect(wrongShape).toEqual([]);

  const [{ total }] = await db.query('SELECT COALESCE(sum(amount), 0)::bigint AS total FROM ledger_entries');
  expect(Number(total)).toBe(0);

  const [{ maintained }] = await db.query(`SELECT to_regclass('ledger_user_balances') IS NOT NULL AS maintained`);
  if (maintained) {
    const [{ folds }] = await db.query(
      `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'ledger_user_balances' AND column_name = 'folded') AS folds`,
    );
    const drifted = await db.query(`
      SELECT a.id AS account_id, a.user_id IS NOT NULL AS user_account,
             b.posted::text AS kept_posted, b.pending::text AS kept_pending, (b.entries${folds ? ' - b.folded' : ''})::text AS kept_entries,
             s.posted::text AS entries_posted, s.pending::text AS entries_pending, s.entries::text AS entries
        FROM ledger_accounts a
        LEFT JOIN ledger_user_balances b ON b.account_id = a.id
        LEFT JOIN (SELECT account_id, sum(amount) FILTER (WHERE layer = 'posted') AS posted,
                          sum(amount) FILTER (WHERE layer = 'pending') AS pending, count(*) AS entries
                     FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
       WHERE ${
         folds
           ? // A folded account may have no entry left (a history that netted to nothing): its row then reads zero.
             `CASE WHEN a.user_id IS NULL THEN b.account_id IS NOT NULL
                   ELSE (COALESCE(b.posted, 0), COALESCE(b.pending, 0), COALESCE(b.entries - b.folded, 0))
                        IS DISTINCT FROM (COALESCE(s.posted, 0), COALESCE(s.pending, 0), COALESCE(s.entries, 0)) END`
           : `CASE WHEN a.user_id IS NULL OR s.entries IS NULL THEN b.account_id IS NOT NULL
                   ELSE (b.posted, b.pending, b.entries) IS DISTINCT FROM (COALESCE(s.posted, 0), COALESCE(s.pending, 0), s.entries) END`
       }`);
    expect(drifted).toEqual([]);
  }

  const usersWithPositivePending = await db.query(`SELECT account_id FROM ledger_balances WHERE user_id IS NOT NULL AND pending > 0`);
  expect(usersWithPositivePending).toEqual([]);

  if (holds) {
    // Held points are never negative, are the sum of the held entries, and are exactly the user's held credits still waiting.
    const heldDrift = await db.query(`
      SELECT b.account_id, b.held::text AS held, COALESCE(h.sum, 0)::text AS waiting, e.sum::text AS entries
        FROM ledger_user_balances b
        LEFT JOIN (SELECT account_id, sum(amount) AS sum FROM ledger_holds GROUP BY account_id) h ON h.account_id = b.account_id
        CROSS JOIN LATERAL (SELECT COALESCE(sum(amount), 0) AS sum FROM ledger_entries WHERE account_id = b.account_id AND layer = 'held') e
       WHERE b.held <> COALESCE(h.sum, 0) OR b.held <> e.sum OR b.held < 0`);
    expect(heldDrift).toEqual([]);
  }
}
