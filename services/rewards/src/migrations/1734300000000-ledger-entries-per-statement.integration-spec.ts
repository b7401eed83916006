import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { Ledger1732061000000 } from './1732061000000-ledger';
import { Earning1732061000001 } from './1732061000001-earning';
import { LedgerEntriesPerStatement1734300000000 } from './1734300000000-ledger-entries-per-statement';

const USER = '00000000-0000-4000-8000-000000000001';

/**
 * Every kind of transfer, one statement at a time and several kinds in one statement, written
 * through the ledger's triggers. Answers each entry as (transfer kind, reference of the transfer or
 * of the reservation it settles, account, layer, amount), in the order the entries were written.
 */
async function writeEveryKind(db: DataSource): Promise<string[]> {
  const [{ id: user }] = await db.query('INSERT INTO ledger_accounts (user_id) VALUES ($1) RETURNING id', [USER]);
  const system: Array<{ id: string; code: string }> = await db.query('SELECT id, code FROM ledger_accounts WHERE code IS NOT NULL');
  const account = (code: string) => system.find((a) => a.code === code)!.id;
  const [bonus, offerwalls, redemptions] = [account('signup_bonus'), account('offerwalls'), account('redemptions')];
  const transfer = (kind: string, debit: string, credit: string, amount: number, reference: string) =>
    db.query('INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference) VALUES ($1, $2, $3, $4, $5)', [
      kind,
      debit,
      credit,
      amount,
      reference,
    ]);
  const linked = (kind: string, reference: string) =>
    `SELECT '${kind}', debit_account_id, credit_account_id, amount, id::text, id FROM ledger_transfers WHERE reference = '${reference}'`;
  const settle = (...selects: string[]) =>
    db.query(
      `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id) ${selects.join(' UNION ALL ')}`,
    );

  await transfer('signup_bonus', bonus, user, 100, 'bonus');
  await db.query(
    `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
     VALUES ('offerwall_credit', $1, $2, 500, 'c1'), ('offerwall_credit', $1, $2, 70, 'c2')`,
    [offerwalls, user],
  );
  await db.query(
    `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id)
     SELECT 'offerwall_reversal', credit_account_id, debit_account_id, amount, reference, id FROM ledger_transfers WHERE reference = 'c2'`,
  );
  for (const [reference, amount] of [
    ['r1', 100],
    ['r2', 50],
    ['r3', 30],
    ['r4', 20],
  ] as const)
    await transfer('reservation', user, redemptions, amount, reference);
  await settle(linked('redemption', 'r1'));
  await settle(linked('release', 'r2'));
  // A post, a void and a credit in one statement.
  await settle(
    linked('redemption', 'r3'),
    linked('release', 'r4'),
    `SELECT 'offerwall_credit', '${offerwalls}'::uuid, '${user}'::uuid, 9, 'c3', NULL::uuid`,
  );
  // A statement whose only transfer exists already writes nothing.
  await db.query(
    `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
     VALUES ('offerwall_credit', $1, $2, 500, 'c1') ON CONFLICT DO NOTHING`,
    [offerwalls, user],
  );

  const names = new Map([[user, 'user'], ...system.map((a) => [a.id, a.code] as [string, string])]);
  const entries: Array<{ kind: string; reference: string; account_id: string; layer: string; amount: string }> = await db.query(
    `SELECT t.kind, COALESCE(l.reference, t.reference) AS reference, e.account_id, e.layer, e.amount
       FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id LEFT JOIN ledger_transfers l ON l.id = t.linked_id
      ORDER BY e.id`,
  );
  return entries.map((e) => `${e.kind} ${e.reference}: ${names.get(e.account_id)} ${e.layer} ${e.amount}`);
}

/**
 * The entries trigger runs once per statement since migration 1734300000000: the entries must be
 * the ones the row trigger of migration 1732061000000 wrote, for every kind, and its `down` must
 * bring the row trigger back.
 */
describe('ledger entries written once per statement (migration 1734300000000)', () => {
  const ns = new TestNamespace();
  const open = (name: string, migrations: Array<new () => unknown>) =>
    openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema(name), entities: [], migrations });
  const dataSources: DataSource[] = [];
  afterAll(async () => {
    for (const db of dataSources) await db.destroy();
    await ns.cleanup();
  });

  it('writes the same entries as the row trigger did, for every kind, and its down brings the row trigger back', async () => {
    const before = await open('rewards_before', [Ledger1732061000000, Earning1732061000001]);
    const after = await open('rewards_after', [Ledger1732061000000, Earning1732061000001, LedgerEntriesPerStatement1734300000000]);
    const reverted = await open('rewards_reverted', [Ledger1732061000000, Earning1732061000001, LedgerEntriesPerStatement1734300000000]);
    dataSources.push(before, after, reverted);
    await reverted.undoLastMigration({ transaction: 'each' });

    const expected = await writeEveryKind(before);
    expect(expected).toHaveLength(30);
    expect(await writeEveryKind(after)).toEqual(expected);
    expect(await writeEveryKind(reverted)).toEqual(expected);
    for (const db of dataSources) await expectLedgerInvariants(db);

    const level = (db: DataSource, trigger: string) =>
      db.query(
        `SELECT CASE WHEN tgtype & 1 = 1 THEN 'row' ELSE 'statement' END AS level FROM pg_trigger WHERE tgname = $1 AND tgrelid = to_regclass($2)`,
        [trigger, `"${db.driver.schema}".${trigger.startsWith('ledger_entries') ? 'ledger_entries' : 'ledger_transfers'}`],
      );
    expect(await level(after, 'ledger_transfers_entries')).toEqual([{ level: 'statement' }]);
    expect(await level(after, 'ledger_entries_origin')).toEqual([{ level: 'statement' }]);
    expect(await level(reverted, 'ledger_transfers_entries')).toEqual([{ level: 'row' }]);
    expect(await level(reverted, 'ledger_entries_origin')).toEqual([{ level: 'row' }]);
  });

  it('refuses entries no transfer wrote: a row, an empty insert, a COPY', async () => {
    const db = await open('rewards_direct', [Ledger1732061000000, Earning1732061000001, LedgerEntriesPerStatement1734300000000]);
    dataSources.push(db);
    await writeEveryKind(db);
    const [{ transfer_id, account_id }] = await db.query('SELECT transfer_id, account_id FROM ledger_entries LIMIT 1');
    const refusal = (sql: string, params?: unknown[]) =>
      db.query(sql, params).then(
        () => 'accepted',
        (err: Error) => err.message,
      );
    const insert = 'INSERT INTO ledger_entries (transfer_id, account_id, layer, amount)';
    expect(await refusal(`${insert} VALUES ($1, $2, 'posted', 1000)`, [transfer_id, account_id])).toMatch(/written by transfers only/);
    expect(await refusal(`${insert} SELECT transfer_id, account_id, layer, amount FROM ledger_entries WHERE false`)).toMatch(
      /written by transfers only/,
    );
    expect(await refusal(`COPY ledger_entries (transfer_id, account_id, layer, amount) FROM STDIN`)).toMatch(/written by transfers only/);
    await expectLedgerInvariants(db);
  });
});
