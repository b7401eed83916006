import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { currencyForCountry, type CreateEsimPaymentResponse, type PaymentConfig, type PaymentMethod } from '@esim/contracts';
import { apiJson } from '../lib/api';
import { countryName, formatNumber, formatPrice } from '../lib/format';
import { usePlanPrices } from '../lib/planPrices';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useErrorText } from '../lib/useErrorText';
import { Card, PageHeader, ShieldIcon, Spinner, useToast } from '../ui';
import { checkoutSelection } from './checkout/checkoutParams';
import { PixPayment } from './checkout/PixPayment';
import { SandboxCardForm } from './checkout/SandboxCardForm';
import './checkout/checkout.css';

// Stripe's React bindings are needed only when paying for real.
const StripeCardForm = lazy(() => import('./checkout/StripeCardForm'));

const PAYMENT_CONFIG_KEY = ['/api/payment-config'] as const;

/**
 * /checkout (spec section 2): buys the prepaid plan of `?plan=` for `?country=` by card, or by Pix
 * where the price is in reais (`?method=pix`; docs/payments.md, "Pix"). It creates
 * the payment (the price is the catalogue's, charged by the server), then shows Stripe's Payment
 * Element when live or the sandbox card form against the Stripe emulator; a paid intent goes to
 * /success, which confirms it. A payment that cannot be set up sends the person back to the
 * dashboard (spec section 8).
 */
export default function CheckoutPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('checkout.title'));
  const [params, setParams] = useSearchParams();
  const { plan, country } = useMemo(() => checkoutSelection(params), [params]);
  // Pix settles reais only: offered where the catalogue prices in reais (Brazil).
  const pixOffered = currencyForCountry(country) === 'BRL';
  const method: PaymentMethod = pixOffered && params.get('method') === 'pix' ? 'pix' : 'card';
  const chooseMethod = (next: PaymentMethod) =>
    setParams(
      (p) => {
        const copy = new URLSearchParams(p);
        if (next === 'pix') copy.set('method', 'pix');
        else copy.delete('method');
        return copy;
      },
      { replace: true },
    );
  const { toast } = useToast();
  const errorText = useErrorText();
  const n = (value: number) => formatNumber(value, i18n.language);

  const config = useQuery<PaymentConfig>({ queryKey: PAYMENT_CONFIG_KEY, staleTime: Infinity });
  // The catalogue's price for this country (reais for Brazil): the same the server charges.
  const price = usePlanPrices(country).data?.find((p) => p.id === plan.id);
  // A query rather than a mutation: mounting twice (React's strict mode, a re-render) must not
  // create two payments; leaving the page forgets it, so a later visit pays a fresh one.
  const payment = useQuery<CreateEsimPaymentResponse>({
    queryKey: ['create-esim-payment', plan.id, country, method],
    queryFn: () => apiJson<CreateEsimPaymentResponse>('POST', '/api/create-esim-payment', { planType: plan.id, country, paymentMethod: method }),
    staleTime: Infinity,
    gcTime: 0,
  });
  const setupError = payment.error ?? config.error;

  useEffect(() => {
    if (!setupError) return;
    console.error('Payment setup failed', setupError);
    toast({ title: t('checkout.setupFailed'), description: errorText(setupError), variant: 'destructive' });
  }, [setupError, toast, t, errorText]);

  if (setupError) return <Navigate to="/dashboard" replace />;

  const payLabel = t('checkout.pay', { plan: plan.id });
  return (
    <main id="main" className="page checkout">
      <PageHeader
        title={t('checkout.title')}
        subtitle={pixOffered ? t('pix.subtitle') : t('checkout.subtitle')}
        back={{ to: '/dashboard', label: t('common.backToDashboard') }}
      />

      <Card title={t('checkout.summary.title')} titleId="summary-title">
        <dl className="detail-list" data-testid="checkout-summary">
          <div>
            <dt>{t('checkout.summary.plan')}</dt>
            <dd>
              {t(plan.nameKey)} · {t('common.gbValue', { value: n(plan.amountGB) })}
            </dd>
          </div>
          <div>
            <dt>{t('checkout.summary.country')}</dt>
            <dd>{countryName(country, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t('checkout.summary.validity')}</dt>
            <dd>{t('dashboard.plans.validity', { days: n(plan.validityDays) })}</dd>
          </div>
          <div className="checkout-total">
            <dt>{t('checkout.summary.total')}</dt>
            <dd data-testid="checkout-total">{price ? formatPrice(price.priceCents, price.currency, i18n.language) : '…'}</dd>
          </div>
        </dl>
      </Card>

      <Card title={method === 'pix' ? t('pix.title') : t('checkout.payment.title')} titleId="payment-title">
        {pixOffered && (
          <fieldset className="pay-methods">
            <legend className="visually-hidden">{t('pix.methodLegend')}</legend>
            {(['pix', 'card'] as const).map((m) => (
              <label key={m} className={`pay-method${method === m ? ' pay-method--selected' : ''}`} data-testid={`method-${m}`}>
                <input type="radio" name="paymentMethod" value={m} checked={method === m} onChange={() => chooseMethod(m)} />
                <span>{t(`pix.method.${m}`)}</span>
              </label>
            ))}
          </fieldset>
        )}
        {payment.data && config.data ? (
          method === 'pix' && payment.data.paymentMethod === 'pix' ? (
            <PixPayment key={payment.data.paymentIntentId} config={config.data} payment={payment.data} />
          ) : config.data.mode === 'live' ? (
            <Suspense fallback={<Spinner label={t('checkout.payment.loading')} />}>
              <StripeCardForm publishableKey={config.data.publishableKey} payment={payment.data} payLabel={payLabel} />
            </Suspense>
          ) : (
            <SandboxCardForm config={config.data} payment={payment.data} payLabel={payLabel} />
          )
        ) : (
          <div className="checkout-loading">
            <Spinner label={t('checkout.payment.loading')} />
          </div>
        )}
        <p className="muted small checkout-secure">
          <ShieldIcon size={16} />
          <span>{t('checkout.payment.secure')}</span>
        </p>
      </Card>
    </main>
  );
}
