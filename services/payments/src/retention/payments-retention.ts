import type { RetentionJob } from '@esim/platform';
import type { PaymentsConfig } from '../config';

/**
 * Payments' retention (docs/accounts.md, "Retention"), run by the platform's RetentionSweeper:
 * purchases are deleted after TRANSACTION_RETENTION_YEARS. A purchase an operator acted on is
 * referenced by its append-only history (purchase_operator_actions, whose trigger refuses any
 * deletion) and stays with it.
 */
export function paymentsRetention(config: PaymentsConfig): RetentionJob[] {
  return [
    {
      name: 'purchases',
      after: `${config.TRANSACTION_RETENTION_YEARS} years`,
      sql: `DELETE FROM esim_purchases WHERE id IN (
              SELECT p.id FROM esim_purchases p
               WHERE p.created_at < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM purchase_operator_actions a WHERE a.purchase_id = p.id)
               LIMIT $1)`,
    },
  ];
}
