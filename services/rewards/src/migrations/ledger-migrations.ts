import { MigrationInterface } from 'typeorm';
import { Ledger1732061000000 } from './1732061000000-ledger';
import { Earning1732061000001 } from './1732061000001-earning';
import { LedgerEntriesPerStatement1734300000000 } from './1734300000000-ledger-entries-per-statement';
import { LedgerUserBalances1734400000000 } from './1734400000000-ledger-user-balances';
import { TimeOrderedIds1734500000000 } from './1734500000000-time-ordered-ids';
import { LedgerChecksPerStatement1734600000000 } from './1734600000000-ledger-checks-per-statement';
import { TasksTransferCheckedPerStatement1734700000000 } from './1734700000000-tasks-transfer-checked-per-statement';
import { TasksUniqueThroughLedger1735600000000 } from './1735600000000-tasks-unique-through-ledger';
import { HeldCredits1736200000000 } from './1736200000000-held-credits';

/**
 * The migrations of the ledger and of the tasks its triggers guard, in order: RewardsModule runs
 * them with the service's others (TypeORM orders all by timestamp), and the spec of each runs them
 * up to it (`ledgerMigrationsThrough`).
 */
export const LEDGER_MIGRATIONS: Array<new () => MigrationInterface> = [
  Ledger1732061000000,
  Earning1732061000001,
  LedgerEntriesPerStatement1734300000000,
  LedgerUserBalances1734400000000,
  TimeOrderedIds1734500000000,
  LedgerChecksPerStatement1734600000000,
  TasksTransferCheckedPerStatement1734700000000,
  TasksUniqueThroughLedger1735600000000,
  HeldCredits1736200000000,
];

/** The ledger's migrations up to and including `last`. */
export function ledgerMigrationsThrough(last: new () => MigrationInterface): Array<new () => MigrationInterface> {
  const i = LEDGER_MIGRATIONS.indexOf(last);
  if (i < 0) throw new Error(`${last.name} is not one of the ledger's migrations`);
  return LEDGER_MIGRATIONS.slice(0, i + 1);
}
