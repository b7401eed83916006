import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { Ledger } from '../ledger/ledger';
import { Ledger1732061000000 } from '../migrations/1732061000000-ledger';
import { Earning1732061000001 } from '../migrations/1732061000001-earning';
import { LedgerEntriesPerStatement1734300000000 } from '../migrations/1734300000000-ledger-entries-per-statement';
import { TimeOrderedIds1734500000000 } from '../migrations/1734500000000-time-ordered-ids';
import { OfferwallCreditDetails1736200000001 } from '../migrations/1736200000001-offerwall-credit-details';
import { TaskKindsAndPages1736400000066 } from '../migrations/1736400000066-task-kinds-and-pages';
import { NewTask, Tasks } from './tasks';

describe('tasks of offer-wall credits (real Postgres)', () => {
  const ns = new TestNamespace();
  const ledger = new Ledger();
  const tasks = new Tasks();
  let db: DataSource;

  beforeAll(async () => {
    db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('rewards'),
      entities: [],
      migrations: [
        Ledger1732061000000,
        Earning1732061000001,
        LedgerEntriesPerStatement1734300000000,
        TimeOrderedIds1734500000000,
        OfferwallCreditDetails1736200000001,
        TaskKindsAndPages1736400000066,
      ],
    });
  });
  afterAll(async () => {
    await db.destroy();
    await ns.cleanup();
  });

  /** `n` credits of distinct amounts to two users, as the tasks of one batch. */
  async function creditedBatch(n: number): Promise<NewTask[]> {
    const users = [randomUUID(), randomUUID()];
    return db.transaction(async (m) => {
      const accounts = await ledger.openUserAccounts(m, users);
      const batch = Array.from({ length: n }, (_, i) => ({ userId: users[i % 2], points: i + 1, transactionId: `tx-${randomUUID()}` }));
      const results = await ledger.creditMany(
        m,
        'offerwall_credit',
        'offerwalls',
        batch.map((t) => ({ accountId: accounts.get(t.userId)!.id, amount: t.points, reference: `torox:${t.transactionId}` })),
      );
      return batch.map((t, i) => ({
        ...t,
        taskType: i % 3 === 0 ? ('ad_view' as const) : ('offer_completion' as const),
        kind: i % 3 === 0 ? ('video_ad' as const) : ('survey' as const),
        provider: 'torox' as const,
        ledgerTransferId: results[i].transfer.id,
      }));
    });
  }

  it('inserts a batch in one statement and answers each task stored, in the order given', async () => {
    const batch = await creditedBatch(40);
    const given = [...batch.slice(20), ...batch.slice(0, 20)];
    const answered = await db.transaction((m) => tasks.insertMany(m, given));

    const stored: Array<{ id: string; completed_at: Date }> = await db.query(
      'SELECT id, completed_at FROM tasks WHERE ledger_transfer_id = ANY($1::uuid[])',
      [given.map((t) => t.ledgerTransferId)],
    );
    expect(stored).toHaveLength(40);
    expect(answered).toEqual(
      given.map((t) => ({
        id: expect.any(String),
        userId: t.userId,
        taskType: t.taskType,
        kind: t.kind,
        pointsEarned: t.points,
        provider: 'torox',
        transactionId: t.transactionId,
        ledgerTransferId: t.ledgerTransferId,
        completedAt: expect.any(Date),
        reversedAt: null,
      })),
    );
    const byId = new Map(stored.map((s) => [s.id, s.completed_at.getTime()]));
    for (const task of answered) expect(task.completedAt.getTime()).toBe(byId.get(task.id));
  });

  it('gives transfers and tasks time-ordered ids (UUIDv7): later batches sort after earlier ones', async () => {
    const first = await creditedBatch(5);
    // Ids order by their millisecond: two batches in the same one would tie on it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await creditedBatch(5);
    const earlierTasks = await db.transaction((m) => tasks.insertMany(m, first));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const tasksOf = [earlierTasks, await db.transaction((m) => tasks.insertMany(m, second))];
    const transferIds = [...first, ...second].map((t) => t.ledgerTransferId);
    const taskIds = tasksOf.flat().map((t) => t.id);
    for (const id of [...transferIds, ...taskIds]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const newest = (ids: string[]) => [...ids].sort().slice(-1)[0];
    const oldest = (ids: string[]) => [...ids].sort()[0];
    expect(oldest(second.map((t) => t.ledgerTransferId)) > newest(first.map((t) => t.ledgerTransferId))).toBe(true);
    expect(oldest(tasksOf[1].map((t) => t.id)) > newest(tasksOf[0].map((t) => t.id))).toBe(true);
  });

  it('marks the tasks of reversed credits, and only those, and answers them as stored', async () => {
    const batch = await creditedBatch(6);
    const inserted = await db.transaction((m) => tasks.insertMany(m, batch));
    const reversedIds = [inserted[1].ledgerTransferId, inserted[4].ledgerTransferId];
    const answered = await db.transaction((m) => tasks.markReversed(m, reversedIds));

    const stored: Array<{ ledger_transfer_id: string; reversed_at: Date | null }> = await db.query(
      'SELECT ledger_transfer_id, reversed_at FROM tasks WHERE ledger_transfer_id = ANY($1::uuid[])',
      [batch.map((t) => t.ledgerTransferId)],
    );
    expect(stored.filter((s) => s.reversed_at !== null).map((s) => s.ledger_transfer_id)).toEqual(expect.arrayContaining(reversedIds));
    expect(stored.filter((s) => s.reversed_at !== null)).toHaveLength(2);
    expect(answered.sort((a, b) => a.pointsEarned - b.pointsEarned)).toEqual(
      [inserted[1], inserted[4]].map((t) => ({
        ...t,
        reversedAt: stored.find((s) => s.ledger_transfer_id === t.ledgerTransferId)!.reversed_at,
      })),
    );
  });
});
