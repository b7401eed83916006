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

const BEFORE = [Ledger1732061000000, Earning1732061000001, LedgerEntriesPerStatement1734300000000];

/**
 * Migration 1734400000000 adds the balances the ledger keeps for user accounts: its backfill must
 * give an existing ledger's users the rows their entries sum to, and its `down` must bring back
 * the functions and view of migration 1734300000000 exactly (the ledger then sums entries again).
 */
describe('balances the ledger keeps for user accounts (migration 1734400000000)', () => {
  const ns = new TestNamespace();
  const ledger = new Ledger();
  const dataSources: DataSource[] = [];
  const open = async (migrations: Array<new () => unknown>) => {
    const db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('rewards'), entities: [], migrations });
    dataSources.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of dataSources) if (db.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  /** A user with every kind of transfer: a bonus, credits, a reversal, a posted, a voided and an open reservation. */
  async function history(db: DataSource): Promise<string> {
    const userId = randomUUID();
    await db.transaction(async (m) => {
      await ledger.openUserAccount(m, userId);
      await ledger.credit(m, { kind: 'signup_bonus', from: 'signup_bonus', userId, amount: 100, reference: userId });
      const { transfer } = await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 900, reference: `cpx:${userId}:1` });
      await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 40, reference: `cpx:${userId}:2` });
      await ledger.reverseCredit(m, transfer);
      await ledger.post(m, (await ledger.reserve(m, { userId, amount: 30, reference: `${userId}:posted` })).id);
      await ledger.void(m, (await ledger.reserve(m, { userId, amount: 20, reference: `${userId}:voided` })).id);
      await ledger.reserve(m, { userId, amount: 10, reference: `${userId}:open` });
    });
    return userId;
  }

  /** The functions, triggers and view that make up the ledger, as the database holds them. */
  const definitions = async (db: DataSource) => ({
    functions: await db.query(
      `SELECT proname, prosrc FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'ledger%' ORDER BY proname`,
    ),
    triggers: await db.query(
      `SELECT c.relname, t.tgname, t.tgtype, t.tgfoid::regproc::text AS fn FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`,
    ),
    view: (await db.query(`SELECT pg_get_viewdef('ledger_balances') AS def`))[0].def,
  });
  const balances = (db: DataSource) =>
    db.query('SELECT account_id, user_id, code, posted::int, pending::int, available::int FROM ledger_balances ORDER BY account_id');

  it('backfills the rows of an existing ledger, and its down restores the ledger of migration 1734300000000', async () => {
    const before = await open(BEFORE);
    const users = [await history(before), await history(before)];
    await ledger.openUserAccount(before.manager, randomUUID()); // an account without entries gets no row
    const previous = await definitions(before);
    const summed = await balances(before);
    await before.destroy();

    const db = await open([...BEFORE, LedgerUserBalances1734400000000]);
    expect(await balances(db)).toEqual(summed);
    const rows = await db.query(
      `SELECT a.user_id, b.posted::int, b.pending::int, b.entries::int FROM ledger_user_balances b JOIN ledger_accounts a ON a.id = b.account_id`,
    );
    expect(rows).toHaveLength(2);
    // 100 + 900 + 40 - 900 - 30 posted, the open reservation pending; one entry per transfer, two for the post.
    for (const userId of users) expect(rows).toContainEqual({ user_id: userId, posted: 110, pending: -10, entries: 10 });
    await expectLedgerInvariants(db);
    users.push(await history(db));
    await expectLedgerInvariants(db);

    await db.undoLastMigration({ transaction: 'each' });
    expect(await definitions(db)).toEqual(previous);
    expect((await db.query(`SELECT to_regclass('ledger_user_balances') AS t`))[0].t).toBeNull();
    users.push(await history(db));
    const reverted = await balances(db);
    expect(reverted.filter((b: { user_id: string }) => users.includes(b.user_id)).map((b: { available: number }) => b.available)).toEqual([
      100, 100, 100, 100,
    ]);
    await db.destroy();

    // Up again: the backfill takes in what was written while the rows were gone.
    const again = await open([...BEFORE, LedgerUserBalances1734400000000]);
    expect(await balances(again)).toEqual(reverted);
    await expectLedgerInvariants(again);
  });
});
