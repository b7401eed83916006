import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource, EntityManager } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace, testSeed } from '@esim/testing';
import { Ledger1732061000000 } from '../migrations/1732061000000-ledger';
import { Earning1732061000001 } from '../migrations/1732061000001-earning';
import { LedgerEntriesPerStatement1734300000000 } from '../migrations/1734300000000-ledger-entries-per-statement';
import { LedgerUserBalances1734400000000 } from '../migrations/1734400000000-ledger-user-balances';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { BalanceAnnouncements } from './balance-announcements';
import { Ledger } from './ledger';

describe('points ledger (real Postgres)', () => {
  const ns = new TestNamespace();
  const ledger = new Ledger();
  let db: DataSource;
  const inTx = <T>(work: (m: EntityManager) => Promise<T>) => db.transaction(work);

  /** A user with an open account holding `points` (an offer-wall credit). */
  async function userWith(points: number): Promise<string> {
    const userId = randomUUID();
    await inTx(async (m) => {
      await ledger.openUserAccount(m, userId);
      if (points > 0)
        await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: points, reference: `test:${userId}` });
    });
    return userId;
  }
  const balance = (userId: string) => ledger.balance(db.manager, userId);
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: unknown) => err as Error & { reason?: string; code?: string },
    );

  beforeAll(async () => {
    db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('rewards'),
      entities: [],
      migrations: [Ledger1732061000000, Earning1732061000001, LedgerEntriesPerStatement1734300000000, LedgerUserBalances1734400000000],
      poolSize: 24,
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(db);
    await db.destroy();
    await ns.cleanup();
  });
  afterEach(() => expectLedgerInvariants(db));

  it('credits once per (kind, reference): a replay answers the first transfer', async () => {
    const userId = await userWith(0);
    const first = await inTx((m) =>
      ledger.credit(m, { kind: 'signup_bonus', from: 'signup_bonus', userId, amount: 100, reference: userId }),
    );
    const again = await inTx((m) =>
      ledger.credit(m, { kind: 'signup_bonus', from: 'signup_bonus', userId, amount: 100, reference: userId }),
    );
    expect(first.created).toBe(true);
    expect(again).toEqual({ transfer: first.transfer, created: false });
    expect(await balance(userId)).toEqual({ posted: 100, pending: 0, available: 100 });
  });

  it('refuses to update, delete or truncate transfers and entries, and entries that no transfer wrote', async () => {
    const userId = await userWith(50);
    for (const sql of [
      'UPDATE ledger_transfers SET amount = 1',
      'DELETE FROM ledger_transfers',
      'TRUNCATE ledger_transfers CASCADE',
      'UPDATE ledger_entries SET amount = amount * 2',
      'DELETE FROM ledger_entries',
      'TRUNCATE ledger_entries',
      `UPDATE ledger_accounts SET user_id = gen_random_uuid() WHERE user_id = '${userId}'`,
      'DELETE FROM ledger_accounts',
    ]) {
      expect((await failure(db.query(sql)))?.message).toMatch(/append-only|only be closed/);
    }
    const [{ id }] = await db.query('SELECT id FROM ledger_accounts WHERE user_id = $1', [userId]);
    const [{ transfer_id }] = await db.query('SELECT transfer_id FROM ledger_entries WHERE account_id = $1', [id]);
    const forged = await failure(
      db.query(`INSERT INTO ledger_entries (transfer_id, account_id, layer, amount) VALUES ($1, $2, 'posted', 1000)`, [transfer_id, id]),
    );
    expect(forged?.message).toMatch(/written by transfers only/);
    expect((await balance(userId)).available).toBe(50);
  });

  it('refuses any write to the balances it keeps but the entries trigger\'s', async () => {
    const userId = await userWith(50);
    const [{ id }] = await db.query('SELECT id FROM ledger_accounts WHERE user_id = $1', [userId]);
    const [{ id: other }] = await db.query('INSERT INTO ledger_accounts (user_id) VALUES (gen_random_uuid()) RETURNING id');
    for (const sql of [
      `UPDATE ledger_user_balances SET posted = posted + 1000 WHERE account_id = '${id}'`,
      `INSERT INTO ledger_user_balances (account_id, posted, pending, entries) VALUES ('${other}', 1000, 0, 1)`,
      `INSERT INTO ledger_user_balances (account_id, posted, pending, entries) VALUES ('${id}', 1000, 0, 1)
         ON CONFLICT (account_id) DO UPDATE SET posted = EXCLUDED.posted`,
      `DELETE FROM ledger_user_balances WHERE account_id = '${id}'`,
      'TRUNCATE ledger_user_balances',
      'COPY ledger_user_balances (account_id, posted, pending, entries) FROM STDIN',
      // A function is no trigger: only the entries trigger runs at trigger depth 2.
      `DO $$ BEGIN UPDATE ledger_user_balances SET posted = posted + 1000 WHERE account_id = '${id}'; END $$`,
    ]) {
      expect((await failure(db.query(sql)))?.message).toMatch(/written by the ledger's entries trigger only/);
    }
    expect(await balance(userId)).toEqual({ posted: 50, pending: 0, available: 50 });
  });

  it('reverses a credit once, even replayed, and the balance may go below zero', async () => {
    const userId = await userWith(0);
    const { transfer: credit } = await inTx((m) =>
      ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 300, reference: 'cpx:T1' }),
    );
    await inTx((m) => ledger.reserve(m, { userId, amount: 200, reference: 'redemption-1' }));
    const results = await Promise.all(Array.from({ length: 5 }, () => inTx((m) => ledger.reverseCredit(m, credit))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1);
    expect(await balance(userId)).toEqual({ posted: 0, pending: -200, available: -200 });
    const blocked = await failure(inTx((m) => ledger.reserve(m, { userId, amount: 1, reference: 'redemption-2' })));
    expect(blocked).toMatchObject({ code: 'conflict', reason: 'insufficient_points' });
  });

  it('refuses a reversal that does not match its credit exactly (database rule)', async () => {
    const userId = await userWith(0);
    const { transfer: credit } = await inTx((m) =>
      ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 80, reference: 'bitlabs:T9' }),
    );
    const tampered = await failure(
      db.query(
        `INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, linked_id) VALUES ('offerwall_reversal', $1, $2, 800, 'x', $3)`,
        [credit.creditAccountId, credit.debitAccountId, credit.id],
      ),
    );
    expect(tampered?.message).toMatch(/take back exactly one credit/);
  });

  it('reserves, then posts or voids exactly once; replays are idempotent; the other settlement is refused', async () => {
    const userId = await userWith(1000);
    const a = await inTx((m) => ledger.reserve(m, { userId, amount: 600, reference: 'redemption-a' }));
    expect(await inTx((m) => ledger.reserve(m, { userId, amount: 600, reference: 'redemption-a' }))).toEqual(a);
    expect(await balance(userId)).toEqual({ posted: 1000, pending: -600, available: 400 });
    const reused = await failure(inTx((m) => ledger.reserve(m, { userId, amount: 10, reference: 'redemption-a' })));
    expect(reused).toMatchObject({ code: 'conflict', reason: 'reference_reused' });

    const posted = await inTx((m) => ledger.post(m, a.id));
    expect(await inTx((m) => ledger.post(m, a.id))).toEqual(posted);
    expect(await failure(inTx((m) => ledger.void(m, a.id)))).toMatchObject({ code: 'conflict', reason: 'already_settled' });
    expect(await balance(userId)).toEqual({ posted: 400, pending: 0, available: 400 });

    const b = await inTx((m) => ledger.reserve(m, { userId, amount: 400, reference: 'redemption-b' }));
    const voided = await inTx((m) => ledger.void(m, b.id));
    expect(await inTx((m) => ledger.void(m, b.id))).toEqual(voided);
    expect(await failure(inTx((m) => ledger.post(m, b.id)))).toMatchObject({ code: 'conflict', reason: 'already_settled' });
    expect(await balance(userId)).toEqual({ posted: 400, pending: 0, available: 400 });
    expect(await failure(inTx((m) => ledger.post(m, randomUUID())))).toMatchObject({ code: 'not_found' });
  });

  it('N parallel reservations against a balance that covers k: exactly k succeed, never below zero', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 2, max: 16 }),
        fc.integer({ min: 0, max: 16 }),
        async (cost, n, k) => {
          const userId = await userWith(cost * k + (cost > 1 ? cost - 1 : 0));
          const results = await Promise.allSettled(
            Array.from({ length: n }, (_, i) =>
              inTx((m) => ledger.reserve(m, { userId, amount: cost, reference: `${userId}:parallel-${i}` })),
            ),
          );
          const won = results.filter((r) => r.status === 'fulfilled').length;
          expect(won).toBe(Math.min(n, k));
          for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ reason: 'insufficient_points' });
          const b = await balance(userId);
          expect(b.available).toBeGreaterThanOrEqual(0);
          expect(b.pending + cost * won).toBe(0);
        },
      ),
      { numRuns: 25, seed: testSeed() },
    );
  });

  it('a reservation sees the entries of every earlier statement of its transaction (a batch of credits, reservations)', async () => {
    const userId = await userWith(0);
    await inTx(async (m) => {
      const { id: accountId } = (await ledger.userAccount(m, userId))!;
      const credits = [1, 2, 3].map((i) => ({ accountId, amount: 100, reference: `batch:${userId}:${i}` }));
      await ledger.creditMany(m, 'offerwall_credit', 'offerwalls', credits);
      await ledger.reserve(m, { userId, amount: 250, reference: `${userId}:first` });
      expect(await failure(ledger.reserve(m, { userId, amount: 60, reference: `${userId}:too-much` }))).toMatchObject({
        reason: 'insufficient_points',
      });
      await ledger.reserve(m, { userId, amount: 50, reference: `${userId}:rest` });
    });
    expect(await balance(userId)).toEqual({ posted: 300, pending: -300, available: 0 });
  });

  it('concurrent credit batches, reversals and reservations on the same users: every balance kept is the sums of its entries', async () => {
    const announcements = new BalanceAnnouncements();
    const user = fc.nat({ max: 2 });
    const op = fc.oneof(
      // A batch as OfferwallCredits applies it (locked first) or as a bare statement; maybe reversing its first credit.
      fc.record({
        kind: fc.constant('credits' as const),
        locked: fc.boolean(),
        reverseFirst: fc.boolean(),
        credits: fc.array(fc.record({ user, amount: fc.integer({ min: 1, max: 100 }) }), { minLength: 1, maxLength: 6 }),
      }),
      fc.record({
        kind: fc.constant('reservation' as const),
        user,
        amount: fc.integer({ min: 1, max: 150 }),
        settle: fc.constantFrom('post' as const, 'void' as const, 'open' as const),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 24 }), async (ops) => {
        // New users each run: their first credits race to create the balance rows.
        const users = [randomUUID(), randomUUID(), randomUUID()];
        const accounts = await inTx((m) => ledger.openUserAccounts(m, users));
        const results = await Promise.allSettled(
          ops.map((o) =>
            inTx(async (m) => {
              if (o.kind === 'reservation') {
                const r = await ledger.reserve(m, { userId: users[o.user], amount: o.amount, reference: randomUUID() });
                if (o.settle !== 'open') await ledger[o.settle](m, r.id);
                return;
              }
              if (o.locked) await announcements.lock(m, o.credits.map((c) => users[c.user]));
              const [first] = await ledger.creditMany(
                m,
                'offerwall_credit',
                'offerwalls',
                o.credits.map((c) => ({ accountId: accounts.get(users[c.user])!.id, amount: c.amount, reference: `race:${randomUUID()}` })),
              );
              if (o.reverseFirst) await ledger.reverseCredit(m, first.transfer);
            }),
          ),
        );
        const expected = users.map(() => ({ posted: 0, pending: 0 }));
        ops.forEach((o, i) => {
          const r = results[i];
          if (r.status === 'rejected') {
            // Only a reservation the balance did not cover may fail: no deadlock, no other error.
            expect({ kind: o.kind, reason: (r.reason as { reason?: string }).reason }).toEqual({ kind: 'reservation', reason: 'insufficient_points' });
            return;
          }
          if (o.kind === 'reservation') {
            if (o.settle === 'post') expected[o.user].posted -= o.amount;
            if (o.settle === 'open') expected[o.user].pending -= o.amount;
            return;
          }
          for (const c of o.credits) expected[c.user].posted += c.amount;
          if (o.reverseFirst) expected[o.credits[0].user].posted -= o.credits[0].amount;
        });
        await expectLedgerInvariants(db);
        for (const [i, userId] of users.entries()) {
          const { posted, pending } = expected[i];
          expect(await balance(userId)).toEqual({ posted, pending, available: posted + pending });
        }
      }),
      // No shrinking: a failure depends on timing, and each run waits out Postgres's deadlock timeout.
      { numRuns: 12, endOnFailure: true, seed: testSeed() + 1 },
    );
  });

  it('the same reservation sent N times at once holds the points once', async () => {
    const userId = await userWith(500);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => inTx((m) => ledger.reserve(m, { userId, amount: 300, reference: 'same-request' }))),
    );
    expect(new Set(results.map((t) => t.id)).size).toBe(1);
    expect(await balance(userId)).toEqual({ posted: 500, pending: -300, available: 200 });
  });

  it('a closed account keeps its history and takes no new credit or reservation', async () => {
    const userId = await userWith(250);
    await inTx((m) => ledger.closeUserAccount(m, userId));
    expect(await balance(userId)).toEqual({ posted: 250, pending: 0, available: 250 });
    expect(
      await failure(inTx((m) => ledger.credit(m, { kind: 'signup_bonus', from: 'signup_bonus', userId, amount: 100, reference: userId }))),
    ).toMatchObject({
      reason: 'account_closed',
    });
    expect(await failure(inTx((m) => ledger.reserve(m, { userId, amount: 100, reference: 'after-close' })))).toMatchObject({
      reason: 'account_closed',
    });
  });
});
