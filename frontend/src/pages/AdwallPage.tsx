import { useId, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REDEEMABLE_PLANS, REDEMPTION_THRESHOLD_POINTS, redeemablePlan } from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { AppNav } from '../components/AppNav';
import { formatNumber } from '../lib/format';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ArrowForwardIcon, Button, ButtonLink, Card, CheckIcon, GiftIcon, LockIcon, PageHeader, ProgressBar } from '../ui';
import { BagIcon, GamepadIcon, ListCheckIcon, PlayIcon } from '../ui/icons';
import { ADWALL_SAMPLE_OFFERS } from './earning/missions';
import './earning/earning.css';

/** The tier whose gap the page names (spec section 2: "how many more are needed for 3GB"). */
const TARGET_PLAN = redeemablePlan('3GB');

const OFFER_ICONS: Record<(typeof ADWALL_SAMPLE_OFFERS)[number]['icon'], ReactNode> = {
  game: <GamepadIcon size={22} />,
  shop: <BagIcon size={22} />,
  video: <PlayIcon size={22} />,
  survey: <ListCheckIcon size={22} />,
};

/**
 * /adwall 'Earn More Data': the balance and the gap to 3GB, a placeholder wall of four sample
 * offers, the redemption tiers of the catalogue, and 'Redeem Your Points' from 1000 points.
 */
export default function AdwallPage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  useDocumentTitle(t('earning.adwall.title'));
  if (!user) return null;
  return (
    <>
      <main id="main" className="page page--with-nav earning">
        <PageHeader title={t('earning.adwall.title')} subtitle={t('earning.adwall.subtitle')} back={{ to: '/task', label: t('common.back') }} />
        <BalanceCard points={user.points} />
        <SampleOffers />
        <Tiers points={user.points} />
        <RedeemButton points={user.points} />
      </main>
      <AppNav />
    </>
  );
}

function BalanceCard({ points }: { points: number }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const missing = Math.max(0, TARGET_PLAN.pointsCost - points);
  const percent = Math.max(0, Math.min(100, (points / TARGET_PLAN.pointsCost) * 100));
  const plan = t('common.gbValue', { value: n(TARGET_PLAN.amountGB) });
  return (
    <Card tone="brand" className="points-card" aria-labelledby="adwall-points-title">
      <h2 id="adwall-points-title" className="progress-card__label">
        {t('earning.adwall.pointsTitle')}
      </h2>
      <p className="progress-card__value" data-testid="adwall-points">
        {t('earning.adwall.points', { points: n(points) })}
      </p>
      <ProgressBar
        value={percent}
        label={t('earning.adwall.barLabel', { plan })}
        valueText={t('dashboard.progress.percent', { percent: n(Math.floor(percent)) })}
      />
      <p className="points-card__hint" data-testid="adwall-missing">
        {missing > 0 ? t('earning.adwall.needed', { points: n(missing), plan }) : t('earning.adwall.enough', { plan })}
      </p>
    </Card>
  );
}

/** The placeholder wall: four sample offers; the real walls are on /task. */
function SampleOffers() {
  const { t, i18n } = useTranslation();
  return (
    <section className="stack" aria-labelledby="sample-offers-title">
      <div className="stack stack--sm">
        <div className="row row--between">
          <h2 id="sample-offers-title" className="section-title">
            {t('earning.adwall.offersTitle')}
          </h2>
          <span className="badge">{t('earning.adwall.preview')}</span>
        </div>
        <p className="muted small">{t('earning.adwall.offersNote')}</p>
      </div>
      <ul className="offer-list">
        {ADWALL_SAMPLE_OFFERS.map((offer) => (
          <li key={offer.key} className="offer-item">
            <span className="offer-item__icon" aria-hidden="true">
              {OFFER_ICONS[offer.icon]}
            </span>
            <div className="offer-item__body">
              <p className="offer-item__title">{t(`earning.adwall.offers.${offer.key}.title`)}</p>
              <p className="muted small">{t(`earning.adwall.offers.${offer.key}.text`)}</p>
            </div>
            <span className="offer-item__reward">{t('earning.adwall.offerReward', { points: formatNumber(offer.points, i18n.language) })}</span>
          </li>
        ))}
      </ul>
      <ButtonLink to="/task" variant="secondary" block icon={<ArrowForwardIcon size={18} />}>
        {t('earning.adwall.toMissions')}
      </ButtonLink>
    </section>
  );
}

/** The redemption tiers of the catalogue (1000 points per GB), each open or locked for this balance. */
function Tiers({ points }: { points: number }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <Card title={t('earning.adwall.tiersTitle')} titleId="tiers-title">
      <ul className="tier-list">
        {REDEEMABLE_PLANS.map((plan) => {
          const open = points >= plan.pointsCost;
          return (
            <li key={plan.tier} className={['tier', open ? 'tier--open' : 'tier--locked'].join(' ')} data-testid={`tier-${plan.tier}`}>
              <span className="icon-badge icon-badge--sm tier__mark" aria-hidden="true">
                {open ? <CheckIcon size={18} /> : <LockIcon size={18} />}
              </span>
              <div className="tier__body">
                <p className="tier__name">{t('common.gbValue', { value: n(plan.amountGB) })}</p>
                <p className="muted small">{open ? t('earning.adwall.tierOpen') : t('earning.adwall.tierLocked', { points: n(plan.pointsCost - points) })}</p>
              </div>
              <span className="tier__cost">{t('earning.adwall.tierCost', { points: n(plan.pointsCost) })}</span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function RedeemButton({ points }: { points: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const noteId = useId();
  const ready = points >= REDEMPTION_THRESHOLD_POINTS;
  return (
    <div className="stack stack--sm">
      <Button
        variant="gold"
        size="lg"
        block
        disabled={!ready}
        aria-describedby={noteId}
        icon={ready ? <GiftIcon size={20} /> : <LockIcon size={20} />}
        onClick={() => navigate('/iccid')}
      >
        {t('earning.adwall.redeem')}
      </Button>
      <p id={noteId} className="muted small text-center">
        {ready ? t('earning.adwall.redeemReady') : t('earning.adwall.redeemLocked', { goal: formatNumber(REDEMPTION_THRESHOLD_POINTS, i18n.language) })}
      </p>
    </div>
  );
}
