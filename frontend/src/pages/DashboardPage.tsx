import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CHECKOUT_COUNTRIES, PLAN_VALIDITY_DAYS, PREPAID_PLANS, REDEMPTION_THRESHOLD_POINTS, type CheckoutCountry, type GiftsResponse, type UserView } from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { AppNav } from '../components/AppNav';
import { Brand } from '../components/Brand';
import { DeviceCheck } from '../components/compatibility/DeviceCheck';
import { countryName, formatDate, formatNumber, formatPrice, initials } from '../lib/format';
import { usePlanPrices, visitorCountry } from '../lib/planPrices';
import { pendingProgress, redemptionProgress } from '../lib/points';
import { HeldPoints, NegativeBalanceNote } from './earning/HeldPoints';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { GIFTS_QUERY_KEY } from './redeem/gifts';
import { BoltIcon, Button, ButtonLink, Card, CheckIcon, GiftIcon, LockIcon, ProgressBar, Select, TargetIcon } from '../ui';
import { InviteCard } from './referrals/InviteCard';
import { RedemptionStandingCard } from './redeem/RedemptionStandingCard';

export default function DashboardPage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.documentTitle'));
  if (!user) return null;
  return (
    <>
      <header className="app-header">
        <div className="app-header__inner">
          <Brand to="/dashboard" />
          {/* The name contains the initials it shows (WCAG 2.5.3, label in name), then what the link does. */}
          <Link to="/profile" className="avatar-button">
            <span>{initials(user.name)}</span>
            <span className="visually-hidden"> {t('dashboard.profileButton')}</span>
          </Link>
        </div>
      </header>
      <main id="main" className="page page--with-nav dashboard">
        <div className="stack stack--sm">
          <h1 className="dashboard__welcome">{t(isNewAccount(user) ? 'appCopy.welcomeNew' : 'dashboard.welcome', { name: user.name })}</h1>
          <p className="muted">{t('dashboard.subtitle')}</p>
        </div>
        <PendingGiftsCard />
        <InstantBanner />
        <NegativeBalanceNote user={user} />
        <RedemptionStandingCard />
        <ProgressCard user={user} />
        <DeviceCheck variant="card" />
        <GiftedCard user={user} />
        <InviteCard />
        <PlansSection />
      </main>
      <AppNav />
    </>
  );
}

/**
 * An admin's gift waiting to be claimed, whatever the balance: each with its claim link (which
 * opens /iccid on that gift). The gift email links here (#gifts); a new gift arrives live
 * (frontend/src/live/LiveUpdates.tsx reads /api/gifts again).
 */
function PendingGiftsCard() {
  const { t, i18n } = useTranslation();
  const gifts = useQuery<GiftsResponse>({ queryKey: GIFTS_QUERY_KEY });
  const pending = gifts.data?.pendingGifts ?? [];
  if (pending.length === 0) return null;
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section id="gifts" className="card card--gold gift-card stack" aria-labelledby="gift-card-title" data-testid="gift-card">
      <h2 id="gift-card-title" className="section-title">
        {t('gifts.card.heading')}
      </h2>
      <ul className="gift-card__list">
        {pending.map((gift) => (
          <li key={gift.giftId} className="gift-card__item" data-testid="pending-gift">
            <span className="icon-badge icon-badge--sm" aria-hidden="true">
              <GiftIcon size={20} />
            </span>
            <div className="gift-card__body">
              <p className="gift-card__title">{t('gifts.card.title', { gb: n(gift.amountGB) })}</p>
              <p className="muted small">{t('gifts.card.grantedOn', { date: formatDate(gift.grantedAt, i18n.language, { dateStyle: 'medium' }) })}</p>
            </div>
            <ButtonLink to={`/iccid?gift=${encodeURIComponent(gift.giftId)}`} variant="gold" size="sm">
              {t('gifts.card.claim', { gb: n(gift.amountGB) })}
            </ButtonLink>
          </li>
        ))}
      </ul>
      <p className="small">{t('gifts.card.text')}</p>
    </section>
  );
}

/** An account made within the last day is greeted, not welcomed back. */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;
function isNewAccount(user: UserView): boolean {
  return Date.now() - Date.parse(user.createdAt) < NEW_ACCOUNT_MS;
}

/**
 * What redeeming takes, as the product does it: the eSIM (or top-up) is issued within seconds, and
 * the data works once the phone registers on the network, within 5-10 minutes, as /success says.
 */
function InstantBanner() {
  const { t } = useTranslation();
  return (
    <div className="banner" role="note">
      <span className="banner__icon" aria-hidden="true">
        <BoltIcon size={20} />
      </span>
      <div>
        <p className="banner__title">{t('appCopy.instantTitle')}</p>
        <p className="banner__text">{t('appCopy.instantText')}</p>
      </div>
    </div>
  );
}

function ProgressCard({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const noteId = useId();
  const n = (value: number) => formatNumber(value, i18n.language);
  const { percent, remaining, ready } = redemptionProgress(user.points);
  const shownPercent = Math.floor(percent);
  const percentText = t('dashboard.progress.percent', { percent: n(shownPercent) });
  return (
    <Card tone="brand" className="progress-card" aria-labelledby="progress-title">
      <div className="row row--between">
        <h2 id="progress-title" className="progress-card__label">
          {t('dashboard.progress.title')}
        </h2>
        {ready && (
          <span className="badge badge--gold">
            <CheckIcon size={14} />
            {t('dashboard.progress.readyBadge')}
          </span>
        )}
      </div>
      <p className="progress-card__value" data-testid="points-balance">
        {t('common.mbValue', { value: n(user.points) })}
      </p>
      <ProgressBar
        value={percent}
        pending={pendingProgress(user.points, user.pendingPoints)}
        label={t('dashboard.progress.barLabel', { goal: n(REDEMPTION_THRESHOLD_POINTS) })}
        valueText={user.pendingPoints > 0 ? t('held.barValue', { percent: n(shownPercent), mb: n(user.pendingPoints) }) : percentText}
      />
      <div className="row row--between small">
        <span>{percentText}</span>
        <span>{ready ? t('dashboard.progress.ready') : t('dashboard.progress.remaining', { mb: n(remaining) })}</span>
      </div>
      <HeldPoints user={user} />
      <div className="stack stack--sm">
        <Button variant="inverse" size="lg" block icon={<TargetIcon size={20} />} onClick={() => navigate('/task')}>
          {t('dashboard.startMission')}
        </Button>
        <Button
          variant="gold"
          size="lg"
          block
          disabled={!ready}
          icon={ready ? <GiftIcon size={20} /> : <LockIcon size={20} />}
          aria-describedby={noteId}
          onClick={() => navigate('/iccid')}
        >
          {t('dashboard.redeem')}
        </Button>
        <p id={noteId} className="progress-card__note">
          {ready ? t('appCopy.redeemNoteReady') : t('appCopy.redeemNoteLocked', { goal: n(REDEMPTION_THRESHOLD_POINTS) })}
        </p>
      </div>
    </Card>
  );
}

function GiftedCard({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  return (
    <Card aria-labelledby="gifted-title" className="stat-card">
      <span className="stat-card__icon" aria-hidden="true">
        <GiftIcon />
      </span>
      <div className="stat-card__body">
        <h2 id="gifted-title" className="stat-card__label">
          {t('dashboard.gifted.title')}
        </h2>
        <p className="stat-card__value" data-testid="data-gifted">
          {t('common.gbValue', { value: formatNumber(user.dataGiftedGB, i18n.language) })}
        </p>
        <p className="muted small">
          {user.lastGiftedAt ? t('dashboard.gifted.last', { date: formatDate(user.lastGiftedAt, i18n.language, { dateStyle: 'medium' }) }) : t('dashboard.gifted.none')}
        </p>
      </div>
    </Card>
  );
}

function PlansSection() {
  const { t, i18n } = useTranslation();
  const [country, setCountry] = useState<CheckoutCountry>(() => {
    const guess = visitorCountry(i18n.language);
    return CHECKOUT_COUNTRIES.find((c) => c === guess) ?? 'US';
  });
  // Prices follow the chosen country: reais for Brazil, US dollars elsewhere.
  const prices = usePlanPrices(country).data;
  const countries = useMemo(
    () =>
      CHECKOUT_COUNTRIES.map((code) => ({ value: code, label: countryName(code, i18n.language) })).sort((a, b) => a.label.localeCompare(b.label, i18n.language)),
    [i18n.language],
  );
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section className="stack" aria-labelledby="plans-title">
      <div className="stack stack--sm">
        <h2 id="plans-title" className="section-title">
          {t('dashboard.plans.title')}
        </h2>
        <p className="muted small">{t('dashboard.plans.subtitle', { days: n(PLAN_VALIDITY_DAYS) })}</p>
      </div>
      <Select
        label={t('dashboard.plans.country')}
        options={countries}
        value={country}
        onChange={(event) => setCountry(event.currentTarget.value as CheckoutCountry)}
      />
      <ul className="plan-list">
        {PREPAID_PLANS.map((plan) => (
          <li key={plan.id} className={['plan-card', plan.popular && 'plan-card--popular'].filter(Boolean).join(' ')}>
            <div className="plan-card__top">
              <div>
                <h3 className="plan-card__name">{t(plan.nameKey)}</h3>
                <p className="plan-card__data">{t('common.gbValue', { value: n(plan.amountGB) })}</p>
              </div>
            </div>
            <p className="muted small">{t(plan.descriptionKey)}</p>
            <div className="plan-card__bottom">
              <p className="plan-card__price">
                <span className="plan-card__amount" data-testid={`plan-price-${plan.id}`}>
                  {(() => {
                    const price = prices?.find((p) => p.id === plan.id);
                    return price ? formatPrice(price.priceCents, price.currency, i18n.language) : '…';
                  })()}
                </span>
                <span className="muted small"> · {t('dashboard.plans.validity', { days: n(plan.validityDays) })}</span>
              </p>
              <ButtonLink
                to={`/checkout?plan=${encodeURIComponent(plan.id)}&country=${encodeURIComponent(country)}`}
                variant={plan.popular ? 'primary' : 'secondary'}
                size="sm"
              >
                {t('dashboard.plans.buy', { plan: plan.id })}
              </ButtonLink>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
