import type { EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

const pending = new WeakMap<QueryRunner, Array<() => void>>();

/**
 * Runs `fn` once the transaction `m` belongs to has committed, and never if it rolls back; at
 * once when `m` is not in a transaction. For counters of domain outcomes (a redemption settled, a
 * purchase paid): counted inside a transaction that then fails and is retried, they would count
 * twice. Needs CommitHooks among the DataSource's subscribers (ServicePlatformModule adds it).
 */
export function afterCommit(m: EntityManager, fn: () => void): void {
  const runner = m.queryRunner;
  if (!runner?.isTransactionActive) {
    fn();
    return;
  }
  const list = pending.get(runner);
  if (list) list.push(fn);
  else pending.set(runner, [fn]);
}

/** The TypeORM subscriber behind afterCommit: runs the callbacks of a committed transaction, drops a rolled-back one's. */
export class CommitHooks implements EntitySubscriberInterface {
  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    // A released savepoint: the transaction around it may still roll back.
    if (runner.isTransactionActive) return;
    const list = pending.get(runner);
    pending.delete(runner);
    for (const fn of list ?? []) {
      try {
        fn();
      } catch {
        // A counter must never fail a committed piece of work.
      }
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) pending.delete(event.queryRunner);
  }
}
