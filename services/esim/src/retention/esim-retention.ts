import type { RetentionJob } from '@esim/platform';
import type { EsimConfig } from '../config';

/**
 * esim's retention (docs/accounts.md, "Retention"), run by the platform's RetentionSweeper in this
 * order: finished deliveries (provisionings) after TRANSACTION_RETENTION_YEARS, except one an
 * operator acted on (its append-only history, provisioning_operator_actions, keeps it); then the
 * delivered or cancelled gifts no delivery names any more (a granted gift is still owed to its
 * user and stays); then the auto top-up records of those years. Each statement picks only rows
 * that are still there, so a run again changes nothing.
 */
export function esimRetention(config: EsimConfig): RetentionJob[] {
  const after = `${config.TRANSACTION_RETENTION_YEARS} years`;
  return [
    {
      name: 'deliveries',
      after,
      sql: `DELETE FROM provisionings WHERE id IN (
              SELECT p.id FROM provisionings p
               WHERE p.completed_at < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM provisioning_operator_actions a WHERE a.provisioning_id = p.id)
               LIMIT $1)`,
    },
    {
      name: 'gifts',
      after,
      sql: `DELETE FROM data_gifts WHERE id IN (
              SELECT g.id FROM data_gifts g
               WHERE g.created_at < now() - $2::interval AND g.status <> 'granted'
                 AND NOT EXISTS (SELECT 1 FROM provisionings p WHERE p.claimed_gift_id = g.id OR p.delivered_gift_id = g.id)
               LIMIT $1)`,
    },
    {
      name: 'auto-topup-records',
      after,
      sql: `DELETE FROM auto_topup_triggers WHERE id IN (SELECT id FROM auto_topup_triggers WHERE created_at < now() - $2::interval LIMIT $1)`,
    },
  ];
}
