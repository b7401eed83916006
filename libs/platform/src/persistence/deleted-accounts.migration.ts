import { MigrationInterface, QueryRunner } from 'typeorm';

/** The payload fields an event may carry that identify a person or their eSIM. */
const PERSONAL_FIELDS = ['iccid', 'targetIccid', 'lpaCode', 'msisdn', 'qrCode', 'email', 'name', 'phone'];

/**
 * Every service remembers the accounts it saw deleted (docs/accounts.md, "Late events"):
 * `deleted_accounts` holds their ids and when, nothing personal, written by the service's
 * AccountDeleted handler (`DeletedAccounts.remember`). An event that arrives later (a provider's
 * result, a payment webhook, a usage read) could otherwise write the person's data again, so:
 * - each service guards its own tables with `lateWriteGuard` (its migrations): a row of a deleted
 *   account is kept without its personal fields, or not written at all;
 * - here, the outbox: an event about a deleted account (`payload.userId`) is written with its
 *   personal fields (PERSONAL_FIELDS, where they are strings) reading `erased`, the value
 *   OutboxErasure uses, so no outbox row and no consumer ever holds them again.
 */
export class DeletedAccounts1732060800004 implements MigrationInterface {
  name = 'DeletedAccounts1732060800004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE deleted_accounts (user_id uuid PRIMARY KEY, deleted_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`
      CREATE FUNCTION outbox_events_of_deleted_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM deleted_accounts d WHERE d.user_id::text = NEW.envelope->'payload'->>'userId') THEN
          NEW.envelope := jsonb_set(NEW.envelope, '{payload}', (
            SELECT jsonb_object_agg(f.key, CASE WHEN f.key = ANY ('{${PERSONAL_FIELDS.join(',')}}'::text[]) AND jsonb_typeof(f.value) = 'string'
                                                THEN '"erased"'::jsonb ELSE f.value END)
              FROM jsonb_each(NEW.envelope->'payload') AS f));
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER outbox_events_of_deleted_accounts BEFORE INSERT ON outbox_events FOR EACH ROW
         WHEN (NEW.envelope->'payload' ? 'userId') EXECUTE FUNCTION outbox_events_of_deleted_accounts()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER outbox_events_of_deleted_accounts ON outbox_events');
    await q.query('DROP FUNCTION outbox_events_of_deleted_accounts()');
    await q.query('DROP TABLE deleted_accounts');
  }
}

/**
 * A trigger that keeps a deleted account's personal data out of `table` (keyed by `user_id`),
 * whatever writes it: with `erase`, the assignments (plpgsql, on NEW) that blank its personal
 * fields; without, the row is not written at all. Fires last among the table's BEFORE triggers
 * (`zz_`), so nothing rewrites the fields after it. Answers the statements for `up` and `down`.
 */
export function lateWriteGuard(table: string, erase?: string): { up: string[]; down: string[] } {
  const fn = `${table}_of_deleted_accounts`;
  return {
    up: [
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
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
