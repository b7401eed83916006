import type { RetentionJob } from './retention-sweeper';

/**
 * Every service's inbox rows past INBOX_RETENTION_DAYS: an inbox row only turns a redelivery of an
 * applied event into a plain ack, and no event is redelivered weeks later (a dead-lettered event
 * was never applied, so it has no row to lose).
 */
export const inboxRetention = (days: number): RetentionJob => ({
  name: 'inbox',
  after: `${days} days`,
  sql: `DELETE FROM inbox_events WHERE ctid IN (
          SELECT ctid FROM inbox_events WHERE processed_at < now() - $2::interval LIMIT $1)`,
});
