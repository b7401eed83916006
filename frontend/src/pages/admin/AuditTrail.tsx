import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@esim/contracts';
import { formatDate } from '../../lib/format';
import { Button, Card, Spinner } from '../../ui';
import { ADMIN_KEYS, fetchAudit } from './adminApi';

/** Actions the trail names in words; any other shows its code. */
const NAMED_ACTIONS = [
  'data_gift_granted',
  'users_exported',
  'operator_retry',
  'operator_deliver',
  'operator_refund',
  'dead_letter_replayed',
  'dead_letters_replayed',
  'dead_letter_discarded',
  'admin_granted',
  'admin_revoked',
];

/** The risk rules' decisions (docs/earning.md, "Risk rules"), named in their feature's texts. */
const RISK_ACTIONS = [
  'redemption_review_approve',
  'redemption_review_reject',
  'redemptions_pause',
  'redemptions_require_review',
  'redemptions_lift',
  'linked_accounts_not_same_person',
  'linked_accounts_pause',
  'linked_accounts_require_review',
  'linked_accounts_lift',
];

/** The audit trail (docs/admin.md): every admin action with who, when, what and how it ended; read-only. */
export function AuditTrail() {
  const { t, i18n } = useTranslation();
  const audit = useInfiniteQuery({
    queryKey: ADMIN_KEYS.audit,
    queryFn: ({ pageParam }) => fetchAudit(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries: AuditEntry[] = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  const actionLabel = (action: string) =>
    NAMED_ACTIONS.includes(action) ? t(`admin.audit.actions.${action}`) : RISK_ACTIONS.includes(action) ? t(`redemptionRisk.admin.audit.${action}`) : action;
  return (
    <Card title={t('admin.audit.title')} titleId="admin-audit-title">
      <p className="muted small">{t('admin.audit.text')}</p>
      {audit.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {audit.isPending && <Spinner label={t('common.loading')} />}
      {audit.isSuccess && entries.length === 0 && <p className="admin__empty">{t('admin.audit.empty')}</p>}
      {entries.length > 0 && (
        <div className="admin__table-wrap" role="region" aria-labelledby="admin-audit-title" tabIndex={0}>
          <table className="admin__table">
            <caption className="visually-hidden">{t('admin.audit.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.audit.columns.at')}</th>
                <th scope="col">{t('admin.audit.columns.actor')}</th>
                <th scope="col">{t('admin.audit.columns.action')}</th>
                <th scope="col">{t('admin.audit.columns.target')}</th>
                <th scope="col">{t('admin.audit.columns.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="audit-entry" data-action={e.action}>
                  <td>
                    <time dateTime={e.at}>{formatDate(e.at, i18n.language, { dateStyle: 'medium', timeStyle: 'medium' })}</time>
                  </td>
                  <td>{e.actor}</td>
                  <th scope="row">{actionLabel(e.action)}</th>
                  <td className="admin__wrap">
                    {e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : ''}
                    {Object.keys(e.details).length > 0 && <span className="muted small"> {Object.entries(e.details).map(([k, v]) => `${k}: ${String(v)}`).join(', ')}</span>}
                  </td>
                  <td>
                    <span className={`badge ${e.outcome === 'succeeded' ? 'badge--success' : e.outcome === 'failed' ? 'badge--danger' : ''}`}>
                      {t(`admin.audit.outcome.${e.outcome ?? 'pending'}`)}
                    </span>
                    {e.outcomeMessage && <span className="muted small"> {e.outcomeMessage}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {audit.hasNextPage && (
        <div>
          <Button variant="secondary" size="sm" busy={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
            {t('admin.audit.more')}
          </Button>
        </div>
      )}
    </Card>
  );
}
