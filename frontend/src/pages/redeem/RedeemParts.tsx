import { forwardRef, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PLAN_VALIDITY_DAYS,
  REDEEMABLE_PLANS,
  REDEMPTION_THRESHOLD_POINTS,
  SANDBOX_DEMO_ICCID,
  type PurchaseType,
  type RedeemablePlan,
  type RedeemablePlanTier,
} from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import {
  AlertIcon,
  BoltIcon,
  Button,
  ButtonLink,
  Card,
  CheckIcon,
  ClockIcon,
  GiftIcon,
  GlobeIcon,
  Input,
  LockIcon,
  SimIcon,
  SparkIcon,
} from '../../ui';
import { RefreshIcon } from '../../ui/icons';
import { planAccess, type PendingGift } from './gifts';
import type { PayWith } from './redemptionFlow';

const cls = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

function useN() {
  const { i18n } = useTranslation();
  return (value: number) => formatNumber(value, i18n.language);
}

/**
 * 'Ready to redeem' with the balance, or 'task completed' with the 50 points a task shows (spec
 * section 9), or, below the points threshold with a gift to claim, that the gift is ready.
 */
export function RedeemBanner({ points, taskCompleted, hasGift }: { points: number; taskCompleted: boolean; hasGift: boolean }) {
  const { t } = useTranslation();
  const n = useN();
  const giftOnly = !taskCompleted && hasGift && points < REDEMPTION_THRESHOLD_POINTS;
  const title = taskCompleted ? t('redeem.banner.taskTitle') : giftOnly ? t('gifts.banner.title') : t('redeem.banner.readyTitle');
  const text = taskCompleted
    ? t('redeem.banner.taskText', { points: n(50) })
    : giftOnly
      ? t('gifts.banner.text')
      : t('redeem.banner.readyText', { points: n(points) });
  return (
    <div className="banner redeem-banner" role="note" data-testid="redeem-banner">
      <span className="banner__icon" aria-hidden="true">
        {taskCompleted ? <CheckIcon size={20} /> : <GiftIcon size={20} />}
      </span>
      <div>
        <p className="banner__title">{title}</p>
        <p className="banner__text">{text}</p>
      </div>
    </div>
  );
}

/**
 * A plan both a gift and the balance cover: the person chooses what pays, the gift first (spending
 * points while a gift waits would leave the gift unused).
 */
export function PayWithChoice({
  value,
  onChange,
  gift,
  plan,
}: {
  value: PayWith;
  onChange: (value: PayWith) => void;
  gift: PendingGift;
  plan: RedeemablePlan;
}) {
  const { t } = useTranslation();
  const n = useN();
  const options: ChoiceOption<PayWith>[] = [
    { type: 'gift', icon: <GiftIcon size={24} />, title: t('gifts.payWith.gift', { gb: n(gift.amountGB) }), text: t('gifts.payWith.giftText') },
    { type: 'points', icon: <SparkIcon size={24} />, title: t('gifts.payWith.points'), text: t('gifts.payWith.pointsText', { points: n(plan.pointsCost) }) },
  ];
  return <ChoiceCards name="payWith" legend={t('gifts.payWith.legend')} options={options} value={value} onChange={onChange} testId="pay" groupTestId="pay-with" />;
}

/** The two option cards (field purchaseType): a new eSIM, or data added to an eSIM the person has. */
export function PurchaseTypeChoice({ value, onChange }: { value: PurchaseType; onChange: (value: PurchaseType) => void }) {
  const { t } = useTranslation();
  const options: ChoiceOption<PurchaseType>[] = (['new', 'existing'] as const).map((type) => ({
    type,
    icon: type === 'new' ? <SimIcon size={24} /> : <RefreshIcon size={24} />,
    title: t(`redeem.type.${type}`),
    text: t(`redeem.type.${type}Text`),
  }));
  return <ChoiceCards name="purchaseType" legend={t('redeem.type.legend')} options={options} value={value} onChange={onChange} testId="type" />;
}

interface ChoiceOption<T extends string> {
  type: T;
  icon: ReactNode;
  title: string;
  text: string;
}

/** Radio buttons drawn as cards (icon, title, a line that describes the choice, a check when chosen). */
function ChoiceCards<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  testId,
  groupTestId,
}: {
  name: string;
  legend: string;
  options: ChoiceOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Each card's test id is `<testId>-<type>`. */
  testId: string;
  groupTestId?: string;
}) {
  const id = useId();
  return (
    <fieldset className="choice-group" data-testid={groupTestId}>
      <legend className="choice-group__legend">{legend}</legend>
      <div className="choice-grid">
        {options.map(({ type, icon, title, text }) => (
          <label key={type} className={cls('choice-card', value === type && 'choice-card--selected')} data-testid={`${testId}-${type}`}>
            <input
              type="radio"
              name={name}
              value={type}
              checked={value === type}
              onChange={() => onChange(type)}
              className="choice-card__input"
              aria-describedby={`${id}-${type}`}
            />
            <span className="choice-card__icon" aria-hidden="true">
              {icon}
            </span>
            <span className="choice-card__title">{title}</span>
            <span className="choice-card__text" id={`${id}-${type}`}>
              {text}
            </span>
            <span className="choice-card__check" aria-hidden="true">
              <CheckIcon size={16} />
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface IccidFieldProps {
  value: string;
  error: string | null;
  onChange: (value: string) => void;
  onBlur: () => void;
  /** Advertise the sandbox provider's demo line. */
  sandbox: boolean;
}

/** The ICCID of the eSIM to top up, where to find it on iPhone and Android, and the demo line in sandbox mode. */
export const IccidField = forwardRef<HTMLInputElement, IccidFieldProps>(function IccidField(
  { value, error, onChange, onBlur, sandbox },
  ref,
) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      {/* The demo line comes first: the field's error, shown on blur, would otherwise push its button
          down under the finger tapping it, and the tap would be lost. */}
      {sandbox && (
        <div className="demo-iccid" data-testid="demo-iccid">
          <p className="small">
            <span className="badge badge--warning">{t('redeem.iccid.sandboxBadge')}</span> {t('redeem.iccid.demo')}{' '}
            <code dir="ltr" className="demo-iccid__code">
              {SANDBOX_DEMO_ICCID}
            </code>
          </p>
          <Button variant="secondary" size="sm" onClick={() => onChange(SANDBOX_DEMO_ICCID)}>
            {t('redeem.iccid.useDemo')}
          </Button>
        </div>
      )}
      <Input
        ref={ref}
        label={t('redeem.iccid.label')}
        hint={t('redeem.iccid.hint')}
        error={error}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={onBlur}
        inputMode="numeric"
        autoComplete="off"
        spellCheck="false"
        maxLength={40}
        placeholder="89…"
        name="iccid"
        dir="ltr"
        className="iccid-field"
      />
      <section className="iccid-help" aria-labelledby="iccid-help-title">
        <h2 id="iccid-help-title" className="iccid-help__title">
          {t('redeem.iccid.helpTitle')}
        </h2>
        <div className="iccid-help__grid">
          {(['ios', 'android'] as const).map((os) => (
            <div key={os} className="iccid-help__os">
              <h3 className="iccid-help__os-title">{t(`redeem.iccid.${os}.title`)}</h3>
              <ol className="iccid-help__steps">
                {[1, 2, 3].map((step) => (
                  <li key={step}>{t(`redeem.iccid.${os}.step${step}`)}</li>
                ))}
              </ol>
            </div>
          ))}
        </div>
      </section>
    </div>
  );
});

/** 1GB, 3GB and 5GB with a check (open) or lock (too few points and no gift) mark; locked tiers cannot be chosen. */
export function PlanChoice({
  value,
  onChange,
  points,
  gifts,
}: {
  value: RedeemablePlanTier;
  onChange: (tier: RedeemablePlanTier) => void;
  points: number;
  gifts: readonly PendingGift[];
}) {
  const { t } = useTranslation();
  const n = useN();
  const id = useId();
  return (
    <fieldset className="choice-group">
      <legend className="choice-group__legend">{t('redeem.plan.legend')}</legend>
      <div className="plan-options">
        {REDEEMABLE_PLANS.map((plan) => {
          const access = planAccess(points, plan, gifts);
          const open = access !== 'locked';
          const noteId = `${id}-${plan.tier}`;
          return (
            <label
              key={plan.tier}
              className={cls('plan-option', !open && 'plan-option--locked', value === plan.tier && 'plan-option--selected')}
              data-testid={`plan-${plan.tier}`}
            >
              <input
                type="radio"
                name="planTier"
                value={plan.tier}
                checked={value === plan.tier}
                disabled={!open}
                onChange={() => onChange(plan.tier)}
                className="choice-card__input"
                aria-describedby={noteId}
              />
              <span className="icon-badge icon-badge--sm plan-option__mark" aria-hidden="true">
                {open ? <CheckIcon size={18} /> : <LockIcon size={18} />}
              </span>
              <span className="plan-option__body">
                <span className="plan-option__name">{t('common.gbValue', { value: n(plan.amountGB) })}</span>
                <span className="plan-option__cost">{t('redeem.plan.cost', { points: n(plan.pointsCost) })}</span>
              </span>
              <span className="plan-option__note" id={noteId}>
                {access === 'points'
                  ? t('redeem.plan.available')
                  : access === 'gift' || access === 'both'
                    ? t('redeem.plan.gift')
                    : t('redeem.plan.locked', { missing: n(plan.pointsCost - points) })}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** What a new eSIM brings: the plan's data and validity, the country, the QR code, and how fast it works. */
export function WhatYouGet({ plan, countryLabel }: { plan: RedeemablePlan; countryLabel: string }) {
  const { t } = useTranslation();
  const n = useN();
  const items = [
    { icon: <SparkIcon size={18} />, text: t('redeem.whatYouGet.data', { gb: n(plan.amountGB), days: n(PLAN_VALIDITY_DAYS) }) },
    { icon: <GlobeIcon size={18} />, text: t('redeem.whatYouGet.country', { country: countryLabel }) },
    { icon: <SimIcon size={18} />, text: t('redeem.whatYouGet.qr') },
    { icon: <BoltIcon size={18} />, text: t('redeem.whatYouGet.fast') },
  ];
  return (
    <Card tone="soft" title={t('redeem.whatYouGet.title')} titleId="what-you-get-title" className="what-you-get">
      <ul className="what-you-get__list">
        {items.map((item) => (
          <li key={item.text}>
            <span className="icon-badge icon-badge--sm what-you-get__icon" aria-hidden="true">
              {item.icon}
            </span>
            <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The plan's cost against the balance, and that a gift pays it or what is missing when the points do not cover it. */
export function CostLine({ plan, points, paidByGift }: { plan: RedeemablePlan; points: number; paidByGift: boolean }) {
  const { t } = useTranslation();
  const n = useN();
  const missing = plan.pointsCost - points;
  const coveredByGift = paidByGift;
  return (
    <div className="redeem-cost">
      <dl className="redeem-cost__line" data-testid="redeem-cost">
        <div>
          <dt>{t('redeem.cost.cost')}</dt>
          <dd>{t('redeem.plan.cost', { points: n(plan.pointsCost) })}</dd>
        </div>
        <div>
          <dt>{t('redeem.cost.balance')}</dt>
          <dd data-testid="redeem-balance">{t('redeem.plan.cost', { points: n(points) })}</dd>
        </div>
      </dl>
      <div aria-live="polite">
        {(missing > 0 || paidByGift) && (
          <p className={cls('redeem-cost__note', !coveredByGift && 'redeem-cost__note--warning')} data-testid="redeem-missing">
            {coveredByGift ? <GiftIcon size={18} /> : <AlertIcon size={18} />}
            <span>
              {coveredByGift ? t('redeem.cost.gift', { missing: n(missing) }) : t('redeem.cost.missing', { missing: n(missing) })}
            </span>
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * A redemption's answer that is not its outcome yet, in place of the form: 'processing', the saga
 * is still running and the data lands later; 'review', the risk rules hold it for an admin
 * (docs/earning.md, "Risk rules"), its points set aside. The live stream says when the data lands.
 */
export function WaitingNotice({ kind }: { kind: 'processing' | 'review' }) {
  const { t } = useTranslation();
  const [title, text] =
    kind === 'review' ? ['redemptionRisk.reviewPendingTitle', 'redemptionRisk.reviewPendingText'] : ['redeem.processing.title', 'redeem.processing.text'];
  return (
    <Card className="processing-notice" aria-labelledby={`${kind}-title`} data-testid={`redeem-${kind}`}>
      <div className="icon-row" role="status">
        <span className="icon-badge icon-badge--lg processing-notice__icon" aria-hidden="true">
          <ClockIcon size={28} />
        </span>
        <div className="stack stack--sm">
          <h2 id={`${kind}-title`} className="section-title" tabIndex={-1}>
            {t(title)}
          </h2>
          <p className="muted">{t(text)}</p>
        </div>
      </div>
      <div className="button-row">
        <ButtonLink to="/dashboard" variant="primary">
          {t('redeem.processing.dashboard')}
        </ButtonLink>
        <ButtonLink to="/history" variant="secondary">
          {t('redeem.processing.history')}
        </ButtonLink>
        <ButtonLink to="/esims" variant="secondary">
          {t('redeem.processing.esims')}
        </ButtonLink>
      </div>
    </Card>
  );
}
