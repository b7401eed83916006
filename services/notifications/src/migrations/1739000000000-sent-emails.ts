import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The emails sent to each account, for the account's data export (docs/accounts.md, "Your data"):
 * what each was about and when, never the address or the content. One row per email job (its id
 * is the event's), so a retried send is recorded once. A deleted account's rows are deleted.
 */
export class SentEmails1739000000000 implements MigrationInterface {
  name = 'SentEmails1739000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sent_emails (
        job_id text PRIMARY KEY,
        recipient_id uuid NOT NULL,
        kind text NOT NULL,
        subject text NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX sent_emails_by_recipient ON sent_emails (recipient_id, sent_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sent_emails');
  }
}
