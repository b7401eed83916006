import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminRefundsResponse } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatNumber, formatPrice } from '../../lib/format';
import { Card, Spinner } from '../../ui';

/** Self-serve refunds (docs/payments.md, "Refunds"): who, what, how much, card or Pix, Stripe's refund, when; newest first. */
export function Refunds() {
  const { t, i18n } = useTranslation();
  const refunds = useQuery({ queryKey: ['/api/admin/refunds'], queryFn: () => apiJson<AdminRefundsResponse>('GET', '/api/admin/refunds') });
  const items = refunds.data?.refunds ?? [];
  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card title={t('refunds.admin.title')} titleId="admin-refunds-title" action={<span className="badge">{formatNumber(items.length, i18n.language)}</span>}>
      <p className="muted small">{t('refunds.admin.text')}</p>
      {refunds.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {refunds.isPending && <Spinner label={t('common.loading')} />}
      {refunds.isSuccess && items.length === 0 && <p className="admin__empty">{t('refunds.admin.empty')}</p>}
      <ul className="admin__items">
        {items.map((r) => (
          <li key={r.purchaseId}>
            <article className="admin__item" aria-labelledby={`refund-${r.purchaseId}`} data-testid="admin-refund">
              <header className="admin__item-header">
                <h3 id={`refund-${r.purchaseId}`} className="admin__item-title">
                  {r.planType} · {formatPrice(r.amount, r.currency, i18n.language)} · {t(`pix.method.${r.paymentMethod}`)}
                </h3>
                <span className={r.status === 'succeeded' ? 'badge badge--success' : 'badge badge--warning'}>{t(`refunds.admin.status.${r.status}`)}</span>
              </header>
              <dl className="admin__facts">
                <div>
                  <dt>{t('admin.queue.user')}</dt>
                  <dd>{r.user ? `${r.user.name} (${r.user.email})` : t('admin.queue.deletedUser')}</dd>
                </div>
                <div>
                  <dt>{t('refunds.admin.requested')}</dt>
                  <dd>{date(r.requestedAt)}</dd>
                </div>
                <div className="admin__facts-wide">
                  <dt>{t('refunds.admin.reference')}</dt>
                  <dd>
                    <code>{r.purchaseId}</code> {r.stripeRefundId && <code>{r.stripeRefundId}</code>}
                  </dd>
                </div>
              </dl>
            </article>
          </li>
        ))}
      </ul>
    </Card>
  );
}
