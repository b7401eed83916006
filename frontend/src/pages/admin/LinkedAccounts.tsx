import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LinkedAccountsResponse } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { Card, Spinner } from '../../ui';
import { ADMIN_KEYS, fetchJson } from './adminApi';

/**
 * Accounts linked by the fraud signals (docs/earning.md, "Fair fraud control"): each group with its
 * reason (a shared device) and each account's other signals. An address alone links nothing, so
 * no group stands on one.
 */
export function LinkedAccounts() {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const linked = useQuery({ queryKey: ADMIN_KEYS.linked, queryFn: () => fetchJson<LinkedAccountsResponse>('/api/admin/linked-accounts') });
  const groups = linked.data?.groups ?? [];
  return (
    <Card title={t('risk.title')} titleId="admin-linked-title" action={<span className="badge">{n(groups.length)}</span>}>
      <p className="muted small">{t('risk.text')}</p>
      {linked.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {linked.isPending && <Spinner label={t('common.loading')} />}
      {linked.isSuccess && groups.length === 0 && <p className="admin__empty">{t('risk.empty')}</p>}
      <ul className="admin__items">
        {groups.map((group, i) => (
          <li key={i}>
            <article className="admin__item" aria-labelledby={`linked-${i}`} data-testid="linked-group">
              <header className="admin__item-header">
                <h3 id={`linked-${i}`} className="admin__item-title">
                  {group.reasons.map((r) => t(`risk.reason.${r}`)).join(' · ')}
                </h3>
                <span className="badge badge--warning">{n(group.accounts.length)}</span>
              </header>
              <ul className="admin__linked">
                {group.accounts.map((a) => (
                  <li key={a.userId}>
                    <p className="admin__linked-name">
                      {a.name} <span dir="ltr">({a.email})</span>
                    </p>
                    <p className="small muted">
                      {[
                        a.disposableEmail ? t('risk.disposable') : null,
                        t('risk.networks', { shown: n(a.sharedNetworks) }),
                        t('risk.reversals', { reversals: n(a.reversals), credits: n(a.credits) }),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                  </li>
                ))}
              </ul>
            </article>
          </li>
        ))}
      </ul>
    </Card>
  );
}
