import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { Ledger } from '../ledger/ledger';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { Ledger1732061000000 } from './1732061000000-ledger';
import { Earning1732061000001 } from './1732061000001-earning';
import { LedgerEntriesPerStatement1734300000000 } from './1734300000000-ledger-entries-per-statement';
import { LedgerUserBalances1734400000000 } from './1734400000000-ledger-user-balances';
import { LedgerChecksPerStatement1734600000000 } from './1734600000000-ledger-checks-per-statement';
import { failure } from '../testing/migrated-ledger';

const MIGRATIONS = [
  Ledger1732061000000,
  Earning1732061000001,
  LedgerEntriesPerStatement1734300000000,
  LedgerUserBalances1734400000000,
  LedgerChecksPerStatement1734600000000,
];

/**
 * Migration 1734600000000 moves the entries' foreign keys and the closed-account rule of credits
 * from per-row to per-statement checks: what they refuse must stay refused, with the same errors,
 * and its `down` must bring the keys and the row trigger back.
 */
describe('ledger checks once per statement (migration 1734600000000)', () => {
  const ns = new TestNamespace();
  const dataSources: DataSource[] = [];
  const open = async (name: string) => {
    const db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema(name), entities: [], migrations: MIGRATIONS });
    dataSources.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of dataSources) if (db.isInitialized) await db.destroy();
    await ns.cleanup();
  });
  const systemAccount = async (db: DataSource, code: string): Promise<string> =>
    (await db.query('SELECT id FROM ledger_accounts WHERE code = $1', [code]))[0].id;

  it('refuses an entry that does not belong to its transfer, even from a trigger that passes the origin check', async () => {
    const db = await open('rewards_entries');
    const ledger = new Ledger(); // one per schema: it keeps the system accounts' ids
    const userId = randomUUID();
    const { transfer } = await db.transaction(async (m) => {
      await ledger.openUserAccount(m, userId);
      return ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 50, reference: `cpx:${userId}` });
    });
    const redemptions = await systemAccount(db, 'redemptions');
    // A trigger on a table of its own writes entries at trigger depth 2, as the entries trigger does.
    await db.query('CREATE TABLE stray_entries (transfer_id uuid, account_id uuid)');
    await db.query(`
      CREATE FUNCTION write_stray_entry() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ledger_entries (transfer_id, account_id, layer, amount) VALUES (NEW.transfer_id, NEW.account_id, 'posted', 1000);
        RETURN NEW;
      END $$`);
    await db.query('CREATE TRIGGER write_stray_entry AFTER INSERT ON stray_entries FOR EACH ROW EXECUTE FUNCTION write_stray_entry()');
    const stray = (transferId: string, accountId: string) =>
      failure(db.query('INSERT INTO stray_entries (transfer_id, account_id) VALUES ($1, $2)', [transferId, accountId]));

    for (const [transferId, accountId] of [
      [randomUUID(), transfer.creditAccountId], // no such transfer
      [transfer.id, redemptions], // an account the transfer does not move points between
      [transfer.id, randomUUID()], // no such account
    ])
      expect(await stray(transferId, accountId)).toEqual({
        message: expect.stringMatching(/does not belong to transfer/),
        code: '23503',
        constraint: 'ledger_entries_match_transfers',
      });
    expect((await db.query('SELECT count(*)::int AS n FROM stray_entries'))[0].n).toBe(0);
    await expectLedgerInvariants(db);
  });

  it('refuses a whole statement of credits when one goes to a closed account, and skips a duplicate one', async () => {
    const db = await open('rewards_closed');
    const ledger = new Ledger();
    const [open1, closed] = [randomUUID(), randomUUID()];
    const accounts = await db.transaction(async (m) => {
      await ledger.openUserAccount(m, open1);
      await ledger.openUserAccount(m, closed);
      await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId: closed, amount: 5, reference: 'cpx:before' });
      return ledger.openUserAccounts(m, [open1, closed]);
    });
    await db.transaction((m) => ledger.closeUserAccount(m, closed));
    const offerwalls = await systemAccount(db, 'offerwalls');
    const credits = (rows: Array<[string, string]>) =>
      failure(
        db.query(
          `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference)
           SELECT 'offerwall_credit', $1, t.account, 10, t.reference FROM unnest($2::uuid[], $3::text[]) AS t(account, reference)
           ON CONFLICT DO NOTHING`,
          [offerwalls, rows.map(([user]) => accounts.get(user)!.id), rows.map(([, reference]) => reference)],
        ),
      );

    expect(
      await credits([
        [open1, 'cpx:1'],
        [closed, 'cpx:2'],
      ]),
    ).toEqual({ message: `ledger account ${accounts.get(closed)!.id} is closed`, code: '23514', constraint: 'ledger_account_closed' });
    expect((await db.query(`SELECT count(*)::int AS n FROM ledger_transfers WHERE reference IN ('cpx:1', 'cpx:2')`))[0].n).toBe(0);
    // A sign-up bonus is the other credit the rule covers.
    expect(
      await failure(
        db.query(
          `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference) VALUES ('signup_bonus', $1, $2, 100, $3)`,
          [await systemAccount(db, 'signup_bonus'), accounts.get(closed)!.id, closed],
        ),
      ),
    ).toMatchObject({ code: '23514', constraint: 'ledger_account_closed' });
    // A credit the account had before it closed, delivered again, writes nothing and refuses nothing.
    expect(await credits([[closed, 'cpx:before']])).toBeUndefined();
    expect(await credits([[open1, 'cpx:1']])).toBeUndefined();
    expect((await ledger.balance(db.manager, open1)).available).toBe(10);
    await expectLedgerInvariants(db);
  });

  it('runs the row check only for linked transfers and reservations, and its down restores the keys and the row trigger', async () => {
    const db = await open('rewards_down');
    const ledger = new Ledger();
    const userId = randomUUID();
    await db.transaction(async (m) => {
      await ledger.openUserAccount(m, userId);
      const { transfer } = await ledger.credit(m, {
        kind: 'offerwall_credit',
        from: 'offerwalls',
        userId,
        amount: 100,
        reference: `cpx:${userId}`,
      });
      await ledger.post(m, (await ledger.reserve(m, { userId, amount: 30, reference: `${userId}:r` })).id);
      await ledger.reverseCredit(m, transfer);
    });
    // A reservation beyond the balance is still refused by the row check, after the reversal took the credit back.
    expect(await failure(db.transaction((m) => ledger.reserve(m, { userId, amount: 1, reference: `${userId}:over` })))).toMatchObject({
      message: expect.stringMatching(/insufficient|not enough/i),
    });
    const keys = () =>
      db.query(`SELECT conname FROM pg_constraint WHERE conrelid = 'ledger_entries'::regclass AND contype = 'f' ORDER BY conname`);
    const checkTrigger = async () =>
      (
        await db.query(
          `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'ledger_transfers_check' AND tgrelid = 'ledger_transfers'::regclass`,
        )
      )[0].def as string;
    expect(await keys()).toEqual([]);
    expect(await checkTrigger()).toMatch(/ WHEN .*new\.linked_id IS NOT NULL.* OR .*new\.kind = 'reservation'/);
    await expectLedgerInvariants(db);

    await db.undoLastMigration({ transaction: 'each' });
    expect(await keys()).toEqual([{ conname: 'ledger_entries_account_id_fkey' }, { conname: 'ledger_entries_transfer_id_fkey' }]);
    expect(await checkTrigger()).not.toMatch(/WHEN/);
    expect(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname IN ('ledger_entries_match_transfers', 'ledger_transfers_not_to_closed')`,
        )
      )[0].n,
    ).toBe(0);
  });
});
