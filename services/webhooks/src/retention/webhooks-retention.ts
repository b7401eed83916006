import type { RetentionJob } from '@esim/platform';
import type { WebhooksConfig } from '../config';

/**
 * The ingestion service's retention (docs/accounts.md, "Retention"), run by the platform's
 * RetentionSweeper: raw payloads erased after PROVIDER_PAYLOAD_RETENTION_DAYS (as a deletion
 * erases them, webhook-transactions.service.ts), source addresses after
 * ANALYTICS_ANONYMISE_AFTER_YEARS, whole records after TRANSACTION_RETENTION_YEARS (first, so the
 * others do not erase what goes anyway). Each statement picks only rows it has not done yet, so a
 * run again changes nothing.
 */
export function webhooksRetention(config: WebhooksConfig): RetentionJob[] {
  return [
    {
      name: 'delivery-records',
      after: `${config.TRANSACTION_RETENTION_YEARS} years`,
      sql: `DELETE FROM webhook_transactions WHERE id IN (SELECT id FROM webhook_transactions WHERE created_at < now() - $2::interval LIMIT $1)`,
    },
    {
      name: 'source-addresses',
      after: `${config.ANALYTICS_ANONYMISE_AFTER_YEARS} years`,
      sql: `UPDATE webhook_transactions SET source_ip = 'erased' WHERE id IN (
              SELECT id FROM webhook_transactions WHERE created_at < now() - $2::interval AND source_ip <> 'erased' LIMIT $1)`,
    },
    {
      name: 'provider-payloads',
      after: `${config.PROVIDER_PAYLOAD_RETENTION_DAYS} days`,
      sql: `UPDATE webhook_transactions SET raw_payload = '{"erased": "retention"}'::jsonb WHERE id IN (
              SELECT id FROM webhook_transactions
               WHERE created_at < now() - $2::interval AND NOT raw_payload ? 'erased' LIMIT $1)`,
    },
  ];
}
