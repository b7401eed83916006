import type { DataSource, EntityManager } from 'typeorm';
import type { SentEmail } from '@esim/contracts';

/** The record of the emails sent to each account (migration 1739000000000-sent-emails). */
export class SentEmails {
  constructor(private readonly db: DataSource) {}

  /** Once per job: a retried send that reaches here again records nothing more. */
  async record(jobId: string, recipientId: string, kind: string, subject: string): Promise<void> {
    await this.db.query('INSERT INTO sent_emails (job_id, recipient_id, kind, subject) VALUES ($1, $2, $3, $4) ON CONFLICT (job_id) DO NOTHING', [
      jobId,
      recipientId,
      kind,
      subject,
    ]);
  }

  async listFor(recipientId: string): Promise<SentEmail[]> {
    const rows: Array<{ kind: string; subject: string; sent_at: Date }> = await this.db.query(
      'SELECT kind, subject, sent_at FROM sent_emails WHERE recipient_id = $1 ORDER BY sent_at DESC',
      [recipientId],
    );
    return rows.map((r) => ({ kind: r.kind, subject: r.subject, sentAt: r.sent_at.toISOString() }));
  }

  async forget(m: EntityManager, recipientId: string): Promise<void> {
    await m.query('DELETE FROM sent_emails WHERE recipient_id = $1', [recipientId]);
  }
}
