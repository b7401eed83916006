import { randomUUID } from 'node:crypto';
import { Ledger } from '../ledger/ledger';
import { Tasks } from '../tasks/tasks';
import { addLaterTaskColumns, failure, migratedLedger } from '../testing/migrated-ledger';
import { TasksTransferCheckedPerStatement1734700000000 } from './1734700000000-tasks-transfer-checked-per-statement';

/**
 * Migration 1734700000000 replaces the tasks' foreign key to their ledger transfer with a check per
 * statement: a task without its transfer must stay refused, a task must keep its transfer, and its
 * `down` must bring the key back.
 */
describe("tasks' ledger transfer checked once per statement (migration 1734700000000)", () => {
  const schema = migratedLedger(TasksTransferCheckedPerStatement1734700000000);

  it('refuses a batch with one task whose transfer does not exist, keeps a task on its transfer, and its down restores the key', async () => {
    const ledger = new Ledger();
    const tasks = new Tasks();
    await addLaterTaskColumns(schema.db);
    const userId = randomUUID();
    const transfers = await schema.db.transaction(async (m) => {
      await ledger.openUserAccount(m, userId);
      const made = [];
      for (const n of [1, 2])
        made.push(
          (await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 10, reference: `cpx:${userId}:${n}` }))
            .transfer,
        );
      return made;
    });
    const task = (transactionId: string, ledgerTransferId: string) => ({
      userId,
      taskType: 'offer_completion' as const,
      kind: 'survey' as const,
      points: 10,
      provider: 'cpx' as const,
      transactionId,
      ledgerTransferId,
    });

    const missing = randomUUID();
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('t1', transfers[0].id), task('t2', missing)])))).toEqual({
      message: `task refers to ledger transfer ${missing}, which does not exist`,
      code: '23503',
      constraint: 'tasks_match_transfers',
    });
    expect((await schema.db.query('SELECT count(*)::int AS n FROM tasks'))[0].n).toBe(0);

    const [written] = await schema.db.transaction((m) => tasks.insertMany(m, [task('t1', transfers[0].id)]));
    expect(
      await failure(schema.db.query('UPDATE tasks SET ledger_transfer_id = $1 WHERE id = $2', [transfers[1].id, written.id])),
    ).toMatchObject({
      code: '23503',
      constraint: 'tasks_transfer_fixed',
    });
    // What Tasks.markReversed changes stays allowed.
    expect(await schema.db.transaction((m) => tasks.markReversed(m, [transfers[0].id]))).toHaveLength(1);

    await schema.db.undoLastMigration({ transaction: 'each' });
    const keys = await schema.db.query(`SELECT conname FROM pg_constraint WHERE conrelid = 'tasks'::regclass AND contype = 'f'`);
    expect(keys).toEqual([{ conname: 'tasks_ledger_transfer_id_fkey' }]);
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('t3', randomUUID())])))).toMatchObject({
      code: '23503',
      constraint: 'tasks_ledger_transfer_id_fkey',
    });
  });
});
