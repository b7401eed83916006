import { DataSource } from 'typeorm';

/**
 * Security check 14: every account's balance is the sum of its entries (computed here
 * independently of the ledger_balances view), every transfer balances on each layer with the
 * entries its kind requires, the ledger as a whole sums to zero, and users only ever hold
 * reservations against themselves (their pending layer is never positive).
 */
export async function expectLedgerInvariants(db: DataSource): Promise<void> {
  const balances: Array<{ account_id: string; view: string; entries: string }> = await db.query(`
    SELECT b.account_id, b.available AS view,
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
     GROUP BY t.id, t.kind HAVING count(e.id) <> CASE t.kind WHEN 'redemption' THEN 4 ELSE 2 END`);
  expect(wrongShape).toEqual([]);

  const [{ total }] = await db.query('SELECT COALESCE(sum(amount), 0)::bigint AS total FROM ledger_entries');
  expect(Number(total)).toBe(0);

  const usersWithPositivePending = await db.query(`SELECT account_id FROM ledger_balances WHERE user_id IS NOT NULL AND pending > 0`);
  expect(usersWithPositivePending).toEqual([]);
}
