import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AutoTopup as Rule, AutoTopupSettings } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { Switch } from '../../ui';

const THRESHOLDS_MB = [100, 200, 500, 1000] as const;
const CAPS = [1, 2, 3, 5] as const;

export const autoTopupKey = (iccid: string) => [`/api/esim-lines/${encodeURIComponent(iccid)}/auto-topup`] as const;

/**
 * "When below X MB, top up 1 GB with my points" on this line (docs/wallet.md, "Top-up with
 * points"): a switch, the threshold and the monthly cap, each saved as it changes.
 */
export function AutoTopup({ iccid }: { iccid: string }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const key = autoTopupKey(iccid);
  const rule = useQuery<Rule>({ queryKey: key });
  const save = useMutation({
    mutationFn: (next: AutoTopupSettings) => apiJson<Rule>('PUT', key[0], next),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const thresholdId = `at${useId()}`;
  const capId = `${thresholdId}-cap`;
  const data = rule.data;
  if (!data) return null;

  const n = (value: number) => formatNumber(value, i18n.language);
  const current: AutoTopupSettings = { enabled: data.enabled, belowMb: data.belowMb, monthlyCap: data.monthlyCap };
  const change = (patch: Partial<AutoTopupSettings>) => save.mutate({ ...current, ...patch });

  return (
    <section className="wallet-autotopup stack stack--sm" data-testid="auto-topup">
      <Switch
        name={`auto-topup-${iccid}`}
        label={t('autoTopup.label', { mb: n(data.belowMb) })}
        description={t('autoTopup.description', { cap: n(data.monthlyCap), used: n(data.usedThisMonth) })}
        checked={data.enabled}
        busy={save.isPending}
        disabled={save.isPending}
        onChange={(enabled) => change({ enabled })}
      />
      {data.enabled && (
        <div className="row row--wrap">
          <label htmlFor={thresholdId} className="small">
            {t('autoTopup.threshold')}
          </label>
          <select id={thresholdId} value={data.belowMb} disabled={save.isPending} onChange={(e) => change({ belowMb: Number(e.target.value) })}>
            {THRESHOLDS_MB.map((mb) => (
              <option key={mb} value={mb}>
                {t('common.mbValue', { value: n(mb) })}
              </option>
            ))}
          </select>
          <label htmlFor={capId} className="small">
            {t('autoTopup.cap')}
          </label>
          <select id={capId} value={data.monthlyCap} disabled={save.isPending} onChange={(e) => change({ monthlyCap: Number(e.target.value) })}>
            {CAPS.map((cap) => (
              <option key={cap} value={cap}>
                {n(cap)}
              </option>
            ))}
          </select>
        </div>
      )}
      {save.isError && (
        <p className="muted small" role="alert">
          {t('autoTopup.failed')}
        </p>
      )}
    </section>
  );
}
