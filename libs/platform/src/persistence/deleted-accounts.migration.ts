import { MigrationInterface, QueryRunner } from 'typeorm';

/** The payload fields an event may carry that identify a person or their eSIM. */
const PERSONAL_FIELDS = ['iccid', 'targetIccid', 'lpaCode', 'msisdn', 'qrCode', 'email', 'name', 'phone'];

/**
 * The accounts a service saw deleted (docs/accounts.md, "Late events"): `deleted_accounts` holds
 * their ids and when, nothing personal, written by the service's AccountDeleted handler
 * (`DeletedAccounts.remember`; rewards, esim and payments, which hold eSIM details). An event that
 * arrives later (a provider's result, a payment webhook, an issued eSIM) could otherwise write the
 * person's data again, so:
 * - such a service guards its own tables with `lateWriteGuard` (late-write-guards.ts, in its
 *   migrations): a row of a deleted account is kept without its personal fields, or not written;
 * - here, the outbox of every service: an event about a deleted account (`payload.userId`) is
 *   written with its personal fields (PERSONAL_FIELDS, where they are strings) reading `erased`,
 *   the value OutboxErasure uses, so no outbox row and no consumer ever holds them again.
 */
export class DeletedAccounts1732060800004 implements MigrationInterface {
  name = 'DeletedAccounts1732060800004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE deleted_accounts (user_id uuid PRIMARY KEY, deleted_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`
      CREATE FUNCTION outbox_events_of_deleted_accounts() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
