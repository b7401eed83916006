import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trigger that keeps a deleted account's personal data out of `table` (keyed by `user_id`),
 * whatever writes it: with `erase`, the assignments (plpgsql, on NEW) that blank its personal
 * fields; without, the row is not written at all. Fires last among the table's BEFORE triggers
 * (`zz_`), so nothing rewrites the fields after it. The function keeps the migration's search_path
 * (`SET search_path FROM CURRENT`): it finds `deleted_accounts` in its own schema whoever writes,
 * an operator's session or a test's included. Answers the statements for `up` and `down`.
 */
export function lateWriteGuard(table: string, erase?: string): { up: string[]; down: string[] } {
  const fn = `${table}_of_deleted_accounts`;
  return {
    up: [
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
       BEGIN
         IF EXISTS (SELECT 1 FROM deleted_accounts d WHERE d.user_id = NEW.user_id) THEN
           ${erase ? `${erase};` : 'RETURN NULL;'}
         END IF;
         RETURN NEW;
       END $$`,
      `CREATE TRIGGER zz_${fn} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    ],
    down: [`DROP TRIGGER zz_${fn} ON ${table}`, `DROP FUNCTION ${fn}()`],
  };
}

/** plpgsql for a guard's `erase`: the column reads `erased` where it held anything, as OutboxErasure writes. */
export const erasedIfSet = (column: string): string => `NEW.${column} := CASE WHEN NEW.${column} IS NULL THEN NULL ELSE 'erased' END`;

/** A service's migration that adds its `lateWriteGuard`s (`guards`), and takes them away in `down`. */
export abstract class LateWriteGuardsMigration implements MigrationInterface {
  abstract name: string;
  protected abstract readonly guards: Array<ReturnType<typeof lateWriteGuard>>;

  async up(q: QueryRunner): Promise<void> {
    for (const guard of this.guards) for (const sql of guard.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const guard of [...this.guards].reverse()) for (const sql of guard.down) await q.query(sql);
  }
}
