import type { RetentionJob } from '@esim/platform';
import type { RewardsConfig } from '../config';

/** The foldable transfers of the accounts being carried forward; `$2` is the retention interval. */
const CUTOFF = `(now() - $2::interval)`;

/**
 * Rewards' retention (docs/accounts.md, "Retention"), run by the platform's RetentionSweeper in
 * this order: the records that name ledger transfers first (tasks, credit details, decided claims,
 * settled redemptions without operator history), then the ledger itself, whose transfers can only
 * be folded once nothing names them (migration 1739500000000: `ledger_foldable`).
 *
 * `ledger` locks up to `$1` user accounts with something to fold (FOR NO KEY UPDATE, as a credit
 * batch takes them: no credit, post or void of those accounts runs meanwhile), and inserts one
 * `carried_forward` per account holding the posted sum of its foldable entries; the ledger's fold
 * trigger then deletes those transfers, after checking that sum itself. Run again, it finds
 * nothing: what is left is either recent or not settled. A transfer of the account that commits
 * between the statement's read and the trigger's (a reversal of an old credit) makes the trigger
 * refuse the sum: that sweep changes nothing, and the next one folds.
 */
export function rewardsRetention(config: RewardsConfig): RetentionJob[] {
  const after = `${config.TRANSACTION_RETENTION_YEARS} years`;
  // One lock for all five: the fold reads what the others delete, and its trigger refuses a sum
  // that changed under it, so none of them may commit while another replica folds.
  const lock = 'transaction-records';
  return [
    {
      name: 'tasks',
      after,
      lock,
      sql: `DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE completed_at < ${CUTOFF} LIMIT $1)`,
    },
    {
      name: 'credit-details',
      after,
      lock,
      sql: `DELETE FROM offerwall_credit_details WHERE credit_id IN (
              SELECT d.credit_id FROM offerwall_credit_details d JOIN ledger_transfers t ON t.id = d.credit_id
               WHERE t.created_at < ${CUTOFF} LIMIT $1)`,
    },
    {
      name: 'credit-claims',
      after,
      lock,
      sql: `DELETE FROM credit_claims WHERE id IN (
              SELECT id FROM credit_claims WHERE created_at < ${CUTOFF} AND status <> 'open' LIMIT $1)`,
    },
    {
      name: 'redemptions',
      after,
      lock,
      sql: `DELETE FROM redemptions WHERE id IN (
              SELECT r.id FROM redemptions r
               WHERE r.created_at < ${CUTOFF} AND r.settled_at IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM redemption_operator_actions a WHERE a.redemption_id = r.id)
               LIMIT $1)`,
    },
    {
      name: 'ledger',
      after,
      lock,
      sql: `WITH due AS (
              SELECT a.id FROM ledger_accounts a
               WHERE a.user_id IS NOT NULL
                 AND a.id IN (SELECT unnest(ARRAY[t.debit_account_id, t.credit_account_id]) FROM ledger_transfers t WHERE t.created_at < ${CUTOFF})
                 AND EXISTS (SELECT 1 FROM ledger_foldable(a.id, ${CUTOFF}))
               ORDER BY a.id LIMIT $1
               FOR NO KEY UPDATE
            ), sums AS (
              SELECT d.id AS account_id, COALESCE((
                       SELECT sum(e.amount) FROM ledger_entries e
                        WHERE e.account_id = d.id AND e.layer = 'posted'
                          AND e.transfer_id IN (SELECT f.id FROM ledger_foldable(d.id, ${CUTOFF}) f)), 0) AS total
                FROM due d
            )
            INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference, carried_until)
            SELECT 'carried_forward',
                   CASE WHEN s.total >= 0 THEN cf.id ELSE s.account_id END,
                   CASE WHEN s.total >= 0 THEN s.account_id ELSE cf.id END,
                   abs(s.total), s.account_id || ':' || to_char(${CUTOFF} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), ${CUTOFF}
              FROM sums s CROSS JOIN ledger_accounts cf
             WHERE cf.code = 'carried_forward'
             ORDER BY s.account_id
            RETURNING id`,
    },
  ];
}
