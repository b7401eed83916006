import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LineUsage as Usage } from '@esim/contracts';
import { apiJson, HttpError } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { Button, ProgressBar, RefreshIcon } from '../../ui';
import { dataAmount, remainingPercent } from './wallet';

export const usageKey = (iccid: string) => [`/api/esim-lines/${encodeURIComponent(iccid)}/usage`] as const;

/**
 * What is left on the line and for how long, as the eSIM provider reports it (read through the
 * server, which reuses a recent answer); Refresh asks the provider again.
 */
export function LineUsage({ iccid, titleId }: { iccid: string; titleId: string }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const key = usageKey(iccid);
  const usage = useQuery<Usage>({ queryKey: key });
  const refresh = useMutation({
    mutationFn: () => apiJson<Usage>('GET', `${key[0]}?refresh=true`),
    onSuccess: (fresh) => queryClient.setQueryData(key, fresh),
  });
  // A line the provider does not know (or no longer lists): nothing to say about it.
  if (usage.error instanceof HttpError && usage.error.status === 404) return null;

  const n = (value: number) => formatNumber(value, i18n.language);
  const amount = (mb: number) => {
    const a = dataAmount(mb);
    return t(a.unit === 'GB' ? 'common.gbValue' : 'common.mbValue', { value: n(a.value) });
  };
  const data = usage.data;
  const percent = data ? remainingPercent(data) : null;
  const error = refresh.error ?? usage.error;

  return (
    <section className="wallet-usage" aria-labelledby={titleId} data-testid="wallet-usage">
      <div className="row row--between">
        <h3 id={titleId} className="wallet-usage__title">
          {t('esims.usage.title')}
        </h3>
        <Button
          variant="ghost"
          size="sm"
          icon={<RefreshIcon size={16} />}
          busy={refresh.isPending}
          disabled={usage.isPending}
          onClick={() => refresh.mutate()}
          aria-label={t('esims.usage.refreshLabelled')}
        >
          {t('esims.usage.refresh')}
        </Button>
      </div>
      {data ? (
        <>
          <p className="wallet-usage__value" data-testid="wallet-usage-left">
            {data.remainingMb === null
              ? t('esims.usage.unknown')
              : data.allowedMb
                ? t('esims.usage.leftOf', { left: amount(data.remainingMb), total: amount(data.allowedMb) })
                : t('esims.usage.left', { left: amount(data.remainingMb) })}
          </p>
          {percent !== null && (
            <ProgressBar value={percent} goldWhenFull={false} label={t('esims.usage.barLabel', { percent: n(percent) })} />
          )}
          <p className="muted small" data-testid="wallet-usage-days">
            {data.remainingDays === null ? t('esims.usage.noExpiry') : t('esims.usage.days', { days: n(data.remainingDays) })}
          </p>
          <p className="muted xs">
            {t('esims.usage.checked', { time: formatDate(data.checkedAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) })}
          </p>
        </>
      ) : usage.isPending ? (
        <p className="muted small">{t('esims.usage.loading')}</p>
      ) : null}
      {error && !refresh.isPending && (
        <p className="muted small" role="status">
          {t('esims.usage.failed')}
        </p>
      )}
    </section>
  );
}
