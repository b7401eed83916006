import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PLAN_VALIDITY_DAYS, REDEMPTION_THRESHOLD_POINTS, SIGNUP_BONUS_POINTS, POINTS_PER_GB } from '@esim/contracts';
import { BRAND_NAME } from '../brand';
import { Brand } from '../components/Brand';
import { DeviceCheck } from '../components/compatibility/DeviceCheck';
import { LanguageSelect } from '../components/LanguageSelect';
import { formatNumber, formatPrice } from '../lib/format';
import { usePlanPrices, visitorCountry } from '../lib/planPrices';
import { HydrateLater } from '../lib/hydrateLater';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { BoltIcon, ButtonLink, CardIcon, GiftIcon, GlobeIcon, ShieldIcon, SimIcon, SparkIcon, TargetIcon } from '../ui';

/** Countries the eSIM plans cover, as the landing page and its meta description say. */
export const COUNTRIES = '180+';

/**
 * The landing page, hydrated part by part (HydrateLater): the header, then the hero, then each
 * section below it, each in a task of its own, so that no step holds up a tap for long on a slow
 * phone.
 */
export default function LandingPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('landing.documentTitle'));
  const n = (value: number) => formatNumber(value, i18n.language);

  return (
    <div className="landing">
      <HydrateLater id="header">
        <header className="landing-header">
          <div className="landing-header__inner">
            <Brand />
            <div className="landing-header__actions">
              <LanguageSelect compact id="landing-language" />
              <ButtonLink to="/auth?login=true" variant="ghost" size="sm">
                {t('landing.login')}
              </ButtonLink>
            </div>
          </div>
        </header>
      </HydrateLater>

      <main id="main">
        <HydrateLater id="hero">
          <section className="hero" aria-labelledby="hero-title">
            <div className="hero__inner">
              <div className="hero__copy">
                <p className="hero__badge">
                  <GiftIcon size={16} />
                  <span>{t('landing.hero.badge', { mb: n(SIGNUP_BONUS_POINTS) })}</span>
                </p>
                <h1 id="hero-title" className="hero__title">
                  {t('landing.hero.title')}
                </h1>
                <p className="hero__subtitle">{t('landing.hero.subtitle', { countries: COUNTRIES })}</p>
                <div className="hero__actions">
                  <ButtonLink to="/auth?signup=true" variant="inverse" size="lg" block>
                    {t('landing.hero.signUp')}
                  </ButtonLink>
                  <p className="hero__note">{t('landing.hero.note')}</p>
                </div>
              </div>
              <HydrateLater id="hero-visual">
                <HeroVisual />
              </HydrateLater>
            </div>
          </section>
        </HydrateLater>

        <HydrateLater id="stats">
          <Stats />
        </HydrateLater>
        <HydrateLater id="device-check">
          <DeviceCheck />
        </HydrateLater>
        <HydrateLater id="how">
          <HowItWorks />
        </HydrateLater>
        <HydrateLater id="why">
          <WhyUs />
        </HydrateLater>
        <HydrateLater id="plans">
          <PlansTeaser />
        </HydrateLater>
        <HydrateLater id="cta">
          <ClosingCta />
        </HydrateLater>
      </main>

      <HydrateLater id="footer">
        <LandingFooter />
      </HydrateLater>
    </div>
  );
}

function useNumber(): (value: number) => string {
  const { i18n } = useTranslation();
  return (value: number) => formatNumber(value, i18n.language);
}

function Stats() {
  const { t } = useTranslation();
  const n = useNumber();
  return (
    <section className="landing-stats" aria-label={t('landing.stats.label')}>
      <ul className="landing-stats__list">
        <li>
          <strong>{COUNTRIES}</strong>
          <span>{t('landing.stats.countries')}</span>
        </li>
        <li>
          <strong>{t('common.mbValue', { value: n(SIGNUP_BONUS_POINTS) })}</strong>
          <span>{t('landing.stats.bonus')}</span>
        </li>
        <li>
          <strong>{t('common.gbValue', { value: n(REDEMPTION_THRESHOLD_POINTS / POINTS_PER_GB) })}</strong>
          <span>{t('landing.stats.unlock')}</span>
        </li>
      </ul>
    </section>
  );
}

function HowItWorks() {
  const { t } = useTranslation();
  const n = useNumber();
  const steps = [
    { icon: <GiftIcon />, title: t('landing.how.step1Title'), text: t('landing.how.step1Text', { mb: n(SIGNUP_BONUS_POINTS) }) },
    { icon: <TargetIcon />, title: t('landing.how.step2Title'), text: t('landing.how.step2Text') },
    {
      icon: <SimIcon />,
      title: t('landing.how.step3Title'),
      text: t('landing.how.step3Text', { gb: n(REDEMPTION_THRESHOLD_POINTS / POINTS_PER_GB), mb: n(REDEMPTION_THRESHOLD_POINTS) }),
    },
  ];
  return (
    <section className="landing-section" aria-labelledby="how-title">
      <p className="eyebrow">{t('landing.how.eyebrow')}</p>
      <h2 id="how-title" className="landing-section__title">
        {t('landing.how.title')}
      </h2>
      <ol className="steps">
        {steps.map((step, index) => (
          <li key={index} className="step">
            <span className="step__number" aria-hidden="true">
              {n(index + 1)}
            </span>
            <div className="step__body">
              <h3 className="step__title">
                <span className="step__icon" aria-hidden="true">
                  {step.icon}
                </span>
                {step.title}
              </h3>
              <p className="muted">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function WhyUs() {
  const { t } = useTranslation();
  const reasons = [
    { icon: <BoltIcon />, title: t('landing.why.instantTitle'), text: t('landing.why.instantText') },
    { icon: <SparkIcon />, title: t('landing.why.noPlasticTitle'), text: t('landing.why.noPlasticText') },
    { icon: <GlobeIcon />, title: t('landing.why.coverageTitle'), text: t('landing.why.coverageText', { countries: COUNTRIES }) },
    { icon: <ShieldIcon />, title: t('landing.why.keepNumberTitle'), text: t('landing.why.keepNumberText') },
  ];
  return (
    <section className="landing-section" aria-labelledby="why-title">
      <p className="eyebrow">{t('landing.why.eyebrow')}</p>
      <h2 id="why-title" className="landing-section__title">
        {t('landing.why.title')}
      </h2>
      <p className="landing-section__lead muted">{t('landing.why.lead')}</p>
      <ul className="features">
        {reasons.map((reason, index) => (
          <li key={index} className="feature">
            <span className="feature__icon" aria-hidden="true">
              {reason.icon}
            </span>
            <h3 className="feature__title">{reason.title}</h3>
            <p className="muted small">{reason.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PlansTeaser() {
  const { t, i18n } = useTranslation();
  const n = useNumber();
  // Before the prices arrive (and in the pre-rendered page) the sentence waits with an ellipsis:
  // the currency depends on where the visitor is, which the build cannot know.
  const prices = usePlanPrices(visitorCountry(i18n.language)).data;
  const cheapest = prices?.reduce((min, plan) => (plan.priceCents < min.priceCents ? plan : min), prices[0]);
  return (
    <section className="landing-section" aria-labelledby="plans-title">
      <div className="plans-teaser">
        <span className="feature__icon" aria-hidden="true">
          <CardIcon />
        </span>
        <div className="stack stack--sm">
          <h2 id="plans-title" className="section-title">
            {t('landing.plans.title')}
          </h2>
          <p className="muted">{t('landing.plans.text', { price: cheapest ? formatPrice(cheapest.priceCents, cheapest.currency, i18n.language) : '…', days: n(PLAN_VALIDITY_DAYS) })}</p>
        </div>
      </div>
    </section>
  );
}

function ClosingCta() {
  const { t } = useTranslation();
  const n = useNumber();
  return (
    <section className="landing-cta" aria-labelledby="cta-title">
      <h2 id="cta-title" className="landing-cta__title">
        {t('landing.cta.title')}
      </h2>
      <p>{t('landing.cta.text', { mb: n(SIGNUP_BONUS_POINTS) })}</p>
      <ButtonLink to="/auth?signup=true" variant="inverse" size="lg">
        {t('landing.cta.button')}
      </ButtonLink>
    </section>
  );
}

function LandingFooter() {
  const { t } = useTranslation();
  return (
    <footer className="landing-footer">
      <div className="landing-footer__inner">
        <Brand />
        <p className="muted small">{t('landing.footer.tagline')}</p>
        <nav aria-label={t('landing.footer.legalNav')}>
          <ul className="landing-footer__links">
            <li>
              <Link to="/privacy">{t('common.privacyPolicy')}</Link>
            </li>
            <li>
              <Link to="/terms">{t('common.termsOfService')}</Link>
            </li>
          </ul>
        </nav>
        {/* Pre-rendered at build time: the year may have turned since (hydration corrects the text). */}
        <p className="muted xs">{t('landing.footer.copyright', { year: new Date().getFullYear(), brand: BRAND_NAME })}</p>
      </div>
    </footer>
  );
}

/** A decorative phone card: what the dashboard looks like. Hidden from assistive technology. */
function HeroVisual() {
  const { t } = useTranslation();
  const n = useNumber();
  return (
    <div className="hero-visual" aria-hidden="true">
      <div className="hero-visual__phone">
        <p className="hero-visual__label">{t('landing.visual.balance')}</p>
        <p className="hero-visual__value">{t('common.mbValue', { value: n(650) })}</p>
        <div className="progress">
          <div className="progress__fill" style={{ inlineSize: '65%' }} />
        </div>
        <p className="hero-visual__hint">{t('landing.visual.toGo', { mb: n(350) })}</p>
        <ul className="hero-visual__list">
          <li>
            <span>{t('landing.visual.video')}</span>
            <strong>+{t('common.mbValue', { value: n(100) })}</strong>
          </li>
          <li>
            <span>{t('landing.visual.survey')}</span>
            <strong>+{t('common.mbValue', { value: n(200) })}</strong>
          </li>
          <li>
            <span>{t('landing.visual.app')}</span>
            <strong>+{t('common.mbValue', { value: n(300) })}</strong>
          </li>
        </ul>
      </div>
    </div>
  );
}
