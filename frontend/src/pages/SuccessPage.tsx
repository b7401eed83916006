import { useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PLAN_VALIDITY_DAYS } from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { formatNumber } from '../lib/format';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ButtonLink, Card, CheckIcon, ClockIcon, EmptyState, GiftIcon, HomeIcon, SparkIcon } from '../ui';
import { PurchaseConfirmation } from './checkout/PurchaseConfirmation';
import { readActivationData } from './redeem/activationData';
import { asSuccessState, giftedSummary, type GiftedSummary } from './redeem/giftedSummary';
import { maskIccid } from './redeem/iccid';
import './earning/earning.css';
import './redeem/redeem.css';

/**
 * /success (spec section 2). With `payment_intent` and `plan` it confirms a card purchase
 * (checkout/PurchaseConfirmation); without them it is the 'Data Gifted!' view of the amount
 * actually gifted, or, right after a top-up, 'Data added!': the amount and the ICCID's last 4
 * digits, and nothing to install (docs/decisions.md, "Topping up someone else's eSIM").
 */
export default function SuccessPage() {
  const [params] = useSearchParams();
  const paymentIntent = params.get('payment_intent');
  const plan = params.get('plan');
  if (paymentIntent && plan) return <PurchaseConfirmation paymentIntentId={paymentIntent} plan={plan} />;
  return <DataGifted />;
}

function DataGifted() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const location = useLocation();
  useDocumentTitle(t('gifted.title'));
  const summary = useMemo(
    () => giftedSummary({ state: asSuccessState(location.state), user, stored: readActivationData() }),
    [location.state, user],
  );
  if (!user) return null;
  return (
    <main id="main" className="page gifted">
      {summary ? <Gifted summary={summary} points={user.points} /> : <NothingGifted />}
    </main>
  );
}

function NothingGifted() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        headingLevel={1}
        icon={<GiftIcon size={32} />}
        title={t('gifted.empty.title')}
        description={t('gifted.empty.text')}
        action={
          <ButtonLink to="/dashboard" block icon={<HomeIcon size={20} />}>
            {t('common.backToDashboard')}
          </ButtonLink>
        }
      />
    </Card>
  );
}

function Gifted({ summary, points }: { summary: GiftedSummary; points: number }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const pending = summary.status === 'pending';
  // A top-up's line may be someone else's: what was added, to which line (last 4 digits), no setup guide.
  const steps = summary.topup ? [1, 2] : [1, 2, 3, 4];
  return (
    <>
      <Card className="outcome-hero" aria-labelledby="gifted-title">
        <span className="outcome-hero__icon" aria-hidden="true">
          {pending ? <ClockIcon size={36} /> : <CheckIcon size={36} />}
        </span>
        <h1 id="gifted-title" className="outcome-hero__title">
          {summary.topup ? t('gifted.topup.title') : summary.paidWithPoints ? t('appCopy.redeemedTitle') : t('gifted.title')}
        </h1>
        <p className="outcome-hero__amount" data-testid="gifted-amount">
          {t('common.gbValue', { value: n(summary.amountGB) })}
        </p>
        {summary.topup && summary.iccid && (
          <p className="outcome-hero__text" data-testid="gifted-topup-text">
            {t('gifted.topup.text', { iccid: summary.iccid })}
          </p>
        )}
        {summary.message && <p className="outcome-hero__text">{summary.message}</p>}
      </Card>

      <Card title={t('gifted.details.title')} titleId="gifted-details-title">
        <dl className="detail-list">
          <div>
            <dt>{t('gifted.details.data')}</dt>
            <dd>{t('common.gbValue', { value: n(summary.amountGB) })}</dd>
          </div>
          <div>
            <dt>{t('gifted.details.status')}</dt>
            <dd>
              <span className={pending ? 'badge badge--warning' : 'badge badge--success'} data-testid="gifted-status">
                {pending ? t('gifted.details.pending') : t('gifted.details.active')}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t('gifted.details.expiry')}</dt>
            <dd>{t('gifted.details.days', { days: n(PLAN_VALIDITY_DAYS) })}</dd>
          </div>
          {summary.iccid && (
            <div>
              <dt>{t('gifted.details.iccid')}</dt>
              <dd dir="ltr" data-testid="gifted-iccid">
                {maskIccid(summary.iccid)}
              </dd>
            </div>
          )}
          <div>
            <dt>{t('gifted.details.balance')}</dt>
            <dd data-testid="gifted-balance">{t('redeem.plan.cost', { points: n(points) })}</dd>
          </div>
        </dl>
      </Card>

      <Card title={t('gifted.next.title')} titleId="gifted-next-title">
        <ol className="steps-list steps-list--soft">
          {steps.map((i) => (
            <li key={i}>
              <span className="icon-badge steps-list__number" aria-hidden="true">
                {n(i)}
              </span>
              <span>{t(`gifted.next.step${i}`)}</span>
            </li>
          ))}
        </ol>
        {summary.topup && (
          <p className="muted" data-testid="gifted-topup-note">
            {t('gifted.topup.note')}
          </p>
        )}
      </Card>

      <div className="stack stack--sm">
        <ButtonLink to="/adwall" variant="gold" size="lg" block icon={<SparkIcon size={20} />}>
          {t('gifted.actions.earnMore')}
        </ButtonLink>
        <ButtonLink to="/" variant="secondary" size="lg" block icon={<HomeIcon size={20} />}>
          {t('gifted.actions.home')}
        </ButtonLink>
      </div>
    </>
  );
}
