import { randomUUID } from 'node:crypto';
import { Ledger } from '../ledger/ledger';
import { Tasks } from '../tasks/tasks';
import { addLaterTaskColumns, failure, migratedLedger } from '../testing/migrated-ledger';
import { TasksUniqueThroughLedger1735600000000 } from './1735600000000-tasks-unique-through-ledger';

/**
 * Migration 1735600000000 drops the tasks' own unique index on the provider transaction: a task
 * must now be written with its own transaction's credit, and the ledger's uniqueness then keeps one
 * task per provider transaction. Its `down` brings the index back.
 */
describe('one task per provider transaction, held by the ledger (migration 1735600000000)', () => {
  const schema = migratedLedger(TasksUniqueThroughLedger1735600000000);
  const count = async () => (await schema.db.query('SELECT count(*)::int AS n FROM tasks'))[0].n as number;

  it("refuses a task on another transaction's credit and a second task of one transaction; its down restores the index", async () => {
    const ledger = new Ledger();
    const tasks = new Tasks();
    await addLaterTaskColumns(schema.db);
    const userId = randomUUID();
    const [t1, t2] = await schema.db.transaction(async (m) => {
      await ledger.openUserAccount(m, userId);
      const made = [];
      for (const transaction of ['t1', 't2'])
        made.push(
          (await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 10, reference: `cpx:${transaction}` }))
            .transfer,
        );
      return made;
    });
    const task = (provider: 'cpx' | 'torox', transactionId: string, ledgerTransferId: string) => ({
      userId,
      taskType: 'offer_completion' as const,
      kind: 'survey' as const,
      points: 10,
      provider,
      transactionId,
      ledgerTransferId,
    });

    // Another transaction's credit, or the same transaction id at another wall: refused, the whole batch.
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('cpx', 't1', t1.id), task('cpx', 't3', t2.id)])))).toEqual({
      message: `task for cpx transaction t3 refers to ledger transfer ${t2.id}, which is not its credit`,
      code: '23503',
      constraint: 'tasks_match_transfers',
    });
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('torox', 't1', t1.id)])))).toMatchObject({
      constraint: 'tasks_match_transfers',
    });
    const missing = randomUUID();
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('cpx', 't1', missing)])))).toEqual({
      message: `task refers to ledger transfer ${missing}, which does not exist`,
      code: '23503',
      constraint: 'tasks_match_transfers',
    });
    expect(await count()).toBe(0);

    // Each transaction's own task goes in; a second task of t1 (its transfer is taken) does not, in
    // the same batch or later.
    await schema.db.transaction((m) => tasks.insertMany(m, [task('cpx', 't1', t1.id), task('cpx', 't2', t2.id)]));
    expect(await failure(schema.db.transaction((m) => tasks.insertMany(m, [task('cpx', 't1', t1.id)])))).toMatchObject({
      code: '23505',
      constraint: 'tasks_ledger_transfer_id_key',
    });
    expect(await count()).toBe(2);
    const unique = async () =>
      (
        await schema.db.query(`SELECT conname FROM pg_constraint WHERE conrelid = 'tasks'::regclass AND contype = 'u' ORDER BY conname`)
      ).map((r: { conname: string }) => r.conname);
    expect(await unique()).toEqual(['tasks_ledger_transfer_id_key']);

    await schema.db.undoLastMigration({ transaction: 'each' });
    expect(await unique()).toEqual(['tasks_ledger_transfer_id_key', 'tasks_one_per_provider_transaction']);
    // As before the migration: only the transfer's existence is checked.
    const [other] = await schema.db.transaction(async (m) => [
      (await ledger.credit(m, { kind: 'offerwall_credit', from: 'offerwalls', userId, amount: 10, reference: 'cpx:t4' })).transfer,
    ]);
    await schema.db.transaction((m) => tasks.insertMany(m, [task('cpx', 't5', other.id)]));
    expect(await count()).toBe(3);
  });
});
