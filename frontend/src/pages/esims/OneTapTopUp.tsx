import { useEffect, useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LINE_TOPUP_PLAN_TIER, redeemablePlan, type LineUsage as Usage } from '@esim/contracts';
import { useAuth } from '../../auth/AuthProvider';
import { CaptchaDialog } from '../../components/captcha/CaptchaDialog';
import { apiJson } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { BoltIcon, Button } from '../../ui';
import { useRedemption } from '../redeem/useRedemption';
import { usageKey } from './LineUsage';

const PLAN = redeemablePlan(LINE_TOPUP_PLAN_TIER);

/**
 * "A one-tap manual top-up from the line" (docs/wallet.md, "Top-up with points"): the plan the
 * automatic top-up adds, paid with spendable points through /iccid's own redemption (captcha first,
 * one Idempotency-Key per tap, the same route and saga), its answer told here on the card.
 */
export function OneTapTopUp({ iccid, plan }: { iccid: string; plan: string }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const redemption = useRedemption({ inPlace: true });
  const reasonId = `otu${useId()}`;
  const n = (value: number) => formatNumber(value, i18n.language);
  const points = user?.points ?? 0;
  const short = points < PLAN.pointsCost;
  const result = redemption.result;

  // The data just added: ask the provider again rather than show the reading from before the top-up.
  useEffect(() => {
    if (result?.kind !== 'added') return;
    const key = usageKey(iccid);
    void apiJson<Usage>('GET', `${key[0]}?refresh=true`)
      .then((fresh) => queryClient.setQueryData(key, fresh))
      .catch(() => queryClient.invalidateQueries({ queryKey: key }));
  }, [result, iccid, queryClient]);

  return (
    <div className="stack stack--sm" data-testid="one-tap-topup">
      <Button
        variant="gold"
        block
        icon={<BoltIcon size={20} />}
        disabled={short}
        busy={redemption.pending}
        busyText={t('lineTopup.pending')}
        aria-describedby={reasonId}
        aria-label={t('lineTopup.buttonLabelled', { gb: n(PLAN.amountGB), plan })}
        onClick={() =>
          redemption.submit('redeem-points', { planTier: PLAN.tier, purchaseType: 'existing', iccid }, { pointsCost: PLAN.pointsCost, balance: points })
        }
      >
        {t('lineTopup.button', { gb: n(PLAN.amountGB) })}
      </Button>
      <p id={reasonId} className="muted small" data-testid="one-tap-topup-cost">
        {short
          ? t('lineTopup.notEnough', { cost: n(PLAN.pointsCost), points: n(points) })
          : t('lineTopup.cost', { cost: n(PLAN.pointsCost), points: n(points) })}
      </p>
      <div role="status" aria-live="polite" data-testid="one-tap-topup-result" data-kind={redemption.pending ? 'pending' : (result?.kind ?? 'idle')}>
        {redemption.pending ? (
          <p className="small">{t('lineTopup.pending')}</p>
        ) : result?.kind === 'added' ? (
          <p className="small">{t('lineTopup.added', { gb: n(result.amountGB) })}</p>
        ) : result?.kind === 'processing' ? (
          <p className="small">{t('lineTopup.processing')}</p>
        ) : result?.kind === 'review' ? (
          <p className="small">{t('lineTopup.review')}</p>
        ) : result?.kind === 'manual' ? (
          <p className="small">{result.message}</p>
        ) : result?.kind === 'failed' ? (
          <p className="small">
            <strong>{result.title}</strong> {result.description}
          </p>
        ) : null}
      </div>
      <CaptchaDialog {...redemption.captcha} description={t('redeem.captcha')} />
    </div>
  );
}
