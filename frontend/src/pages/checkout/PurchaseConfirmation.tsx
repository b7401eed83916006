import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PurchaseConfirmation as Confirmation } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useErrorText } from '../../lib/useErrorText';
import { AlertIcon, Button, ButtonLink, Card, CheckIcon, ClockIcon, HomeIcon, RefreshIcon, SimIcon, Spinner, useToast } from '../../ui';
import { QrImage } from '../activation/QrImage';
import { PURCHASES_QUERY_KEY } from '../esims/wallet';
import { maskIccid } from '../redeem/iccid';
import { activationPath, viewOfConfirmation, viewOfError, type PurchaseView } from './purchaseOutcome';
import '../earning/earning.css';
import './checkout.css';

/**
 * /success?payment_intent=…&plan=… (spec section 2): confirms the card payment with the server,
 * which reads it from Stripe, and shows the eSIM it bought, or why not (spec section 8).
 */
export function PurchaseConfirmation({ paymentIntentId, plan }: { paymentIntentId: string; plan: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  // A query keyed by the intent: confirming is harmless to repeat, and a re-render never repeats it.
  const confirm = useQuery<Confirmation>({
    queryKey: ['confirm-esim-purchase', paymentIntentId],
    queryFn: () => apiJson<Confirmation>('POST', '/api/confirm-esim-purchase-by-intent', { paymentIntentId }),
    staleTime: Infinity,
  });
  const view: PurchaseView | null = confirm.data
    ? viewOfConfirmation(confirm.data)
    : confirm.error
      ? viewOfError(errorText(confirm.error, t('purchase.failed.default')))
      : null;
  useDocumentTitle(
    !view
      ? t('purchase.loading.title')
      : view.kind === 'purchased'
        ? t('purchase.done.title')
        : view.kind === 'processing'
          ? t('purchase.processing.title')
          : t('purchase.failed.title'),
  );

  // Each outcome's toast once (spec section 8).
  const toasted = useRef<string | null>(null);
  useEffect(() => {
    if (!view || view.kind !== 'failed' || toasted.current === paymentIntentId) return;
    toasted.current = paymentIntentId;
    toast(
      view.paid
        ? { title: t('purchase.toast.issueTitle'), description: t('purchase.toast.issueText'), variant: 'destructive', duration: 10_000 }
        : { title: t('purchase.toast.failedTitle'), description: view.text ?? t('purchase.failed.default'), variant: 'destructive' },
    );
  }, [view, paymentIntentId, toast, t]);

  // The new eSIM is kept for reading offline (the service worker keeps the wallet's last answer).
  useEffect(() => {
    if (view?.kind === 'purchased') void queryClient.prefetchQuery({ queryKey: PURCHASES_QUERY_KEY });
  }, [view?.kind, queryClient]);

  return (
    <main id="main" className="page purchase">
      {!view ? (
        <Card className="outcome-hero" aria-labelledby="purchase-title" aria-busy="true">
          <Spinner size="lg" />
          <h1 id="purchase-title" className="outcome-hero__title">
            {t('purchase.loading.title')}
          </h1>
          <p className="outcome-hero__text">{t('purchase.loading.text', { plan })}</p>
        </Card>
      ) : view.kind === 'purchased' ? (
        <Purchased view={view} />
      ) : view.kind === 'processing' ? (
        <Processing view={view} onCheck={() => void confirm.refetch()} checking={confirm.isFetching} />
      ) : (
        <Failed view={view} onRetry={() => void confirm.refetch()} retrying={confirm.isFetching} />
      )}
    </main>
  );
}

function Purchased({ view }: { view: Extract<PurchaseView, { kind: 'purchased' }> }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <>
      <Card className="outcome-hero" aria-labelledby="purchase-title">
        <span className="outcome-hero__icon" aria-hidden="true">
          <CheckIcon size={36} />
        </span>
        <h1 id="purchase-title" className="outcome-hero__title">
          {t('purchase.done.title')}
        </h1>
        <p className="outcome-hero__text">{t('purchase.done.text')}</p>
      </Card>

      <Card title={t('purchase.details.title')} titleId="purchase-details-title">
        <dl className="detail-list" data-testid="purchase-details">
          <div>
            <dt>{t('purchase.details.plan')}</dt>
            <dd data-testid="purchase-plan">{view.planType}</dd>
          </div>
          <div>
            <dt>{t('purchase.details.data')}</dt>
            <dd data-testid="purchase-data">{t('common.gbValue', { value: n(view.amountGB) })}</dd>
          </div>
          <div>
            <dt>{t('purchase.details.status')}</dt>
            <dd>
              <span className="badge badge--success" data-testid="purchase-status">
                {t('purchase.details.activated')}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t('purchase.details.iccid')}</dt>
            <dd dir="ltr" data-testid="purchase-iccid">
              {maskIccid(view.iccid)}
            </dd>
          </div>
        </dl>
      </Card>

      <Card title={t('purchase.qr.title')} titleId="purchase-qr-title">
        <QrImage lpaCode={view.lpaCode} qrCode={view.qrCode} />
        <p className="muted small text-center">{t('purchase.qr.hint')}</p>
      </Card>

      <div className="stack stack--sm">
        <ButtonLink to={activationPath(view.iccid, view.lpaCode)} size="lg" block icon={<SimIcon size={20} />}>
          {t('purchase.actions.setup')}
        </ButtonLink>
        <ButtonLink to="/dashboard" variant="secondary" size="lg" block icon={<HomeIcon size={20} />}>
          {t('purchase.actions.dashboard')}
        </ButtonLink>
      </div>
    </>
  );
}

function Processing({
  view,
  onCheck,
  checking,
}: {
  view: Extract<PurchaseView, { kind: 'processing' }>;
  onCheck: () => void;
  checking: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Card className="outcome-hero" aria-labelledby="purchase-title">
        <span className="outcome-hero__icon outcome-hero__icon--waiting" aria-hidden="true">
          <ClockIcon size={36} />
        </span>
        <h1 id="purchase-title" className="outcome-hero__title">
          {t('purchase.processing.title')}
        </h1>
        <p className="outcome-hero__text">
          {t('purchase.processing.text', { plan: view.planType, gb: formatNumber(view.amountGB, i18n.language) })}
        </p>
        <p className="outcome-hero__text small">{view.message}</p>
      </Card>
      <div className="stack stack--sm">
        <Button size="lg" block busy={checking} icon={<RefreshIcon size={20} />} onClick={onCheck}>
          {t('purchase.processing.check')}
        </Button>
        <ButtonLink to="/esims" variant="secondary" size="lg" block icon={<SimIcon size={20} />}>
          {t('purchase.processing.wallet')}
        </ButtonLink>
        <ButtonLink to="/dashboard" variant="ghost" size="lg" block icon={<HomeIcon size={20} />}>
          {t('purchase.actions.dashboard')}
        </ButtonLink>
      </div>
    </>
  );
}

function Failed({ view, onRetry, retrying }: { view: Extract<PurchaseView, { kind: 'failed' }>; onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Card className="outcome-hero" aria-labelledby="purchase-title">
        <span className="outcome-hero__icon outcome-hero__icon--failed" aria-hidden="true">
          <AlertIcon size={36} />
        </span>
        <h1 id="purchase-title" className="outcome-hero__title">
          {t('purchase.failed.title')}
        </h1>
        <p className="outcome-hero__text" data-testid="purchase-failure">
          {view.text ?? t('purchase.failed.default')}
        </p>
        {view.manualDelivery && (
          <p className="outcome-hero__text" data-testid="purchase-manual">
            {t('purchase.failed.manualDelivery')}
          </p>
        )}
      </Card>
      <div className="stack stack--sm">
        {!view.paid && (
          <Button variant="secondary" size="lg" block busy={retrying} icon={<RefreshIcon size={20} />} onClick={onRetry}>
            {t('purchase.failed.retry')}
          </Button>
        )}
        <ButtonLink to="/dashboard" size="lg" block icon={<HomeIcon size={20} />}>
          {t('purchase.actions.dashboard')}
        </ButtonLink>
      </div>
    </>
  );
}
