import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WALL_CLAIM_GUIDE, type CreditClaimsResponse } from '@esim/contracts';
import { formatDate, formatNumber } from '../../lib/format';
import { Card, Spinner } from '../../ui';
import { CREDIT_CLAIMS_QUERY_KEY } from './claimsApi';

const STATUS_BADGE = { open: 'badge badge--warning', credited: 'badge badge--success', rejected: 'badge badge--danger' } as const;

/** The user's claims, newest first, each with its decision: the points credited or the admin's reason. */
export function ClaimList() {
  const { t, i18n } = useTranslation();
  const claims = useQuery<CreditClaimsResponse>({ queryKey: CREDIT_CLAIMS_QUERY_KEY });
  const list = claims.data?.claims ?? [];
  return (
    <section className="stack" aria-labelledby="claims-list-title">
      <h2 id="claims-list-title" className="section-title">
        {t('claims.list.title')}
      </h2>
      {claims.isPending && <Spinner label={t('common.loading')} />}
      {claims.isError && <p role="alert">{t('claims.list.error')}</p>}
      {claims.isSuccess && list.length === 0 && <p className="muted">{t('claims.list.empty')}</p>}
      {list.length > 0 && (
        <Card>
          <ul className="claim-list">
            {list.map((c) => (
              <li key={c.id} className="claim-item" data-testid="claim-item" data-status={c.status}>
                <div className="claim-item__body">
                  <p className="claim-item__offer">{c.offerName}</p>
                  <p className="muted small">
                    {t('claims.list.meta', {
                      wall: WALL_CLAIM_GUIDE[c.wall].name,
                      date: formatDate(`${c.completedOn}T12:00:00`, i18n.language, { dateStyle: 'medium' }),
                    })}
                  </p>
                  {c.status === 'credited' && c.points !== null && <p className="small">{t('claims.list.credited', { mb: formatNumber(c.points, i18n.language) })}</p>}
                  {c.status === 'rejected' && c.rejectReason && <p className="small">{t('claims.list.rejected', { reason: c.rejectReason })}</p>}
                </div>
                <span className={STATUS_BADGE[c.status]}>{t(`claims.list.status.${c.status}`)}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
