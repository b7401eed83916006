import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  CLAIM_COUNTRIES,
  REDEMPTION_THRESHOLD_POINTS,
  redeemablePlan,
  type ClaimCountry,
  type GiftsResponse,
  type PurchaseType,
  type RedeemablePlanTier,
  type RedeemRequest,
  type UserView,
} from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { CaptchaDialog } from '../components/captcha/CaptchaDialog';
import { countryName, formatNumber } from '../lib/format';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Button, FullPageSpinner, GiftIcon, PageHeader, Select, SimIcon, useToast } from '../ui';
import { RedemptionStandingCard } from './redeem/RedemptionStandingCard';
import { coveringGift, GIFTS_QUERY_KEY, planAccess, type PendingGift } from './redeem/gifts';
import { isValidIccid, normalizeIccid } from './redeem/iccid';
import { chooseRedeemCall, submitLabel, type PayWith } from './redeem/redemptionFlow';
import { CostLine, IccidField, PayWithChoice, PlanChoice, PurchaseTypeChoice, RedeemBanner, WaitingNotice, WhatYouGet } from './redeem/RedeemParts';
import { useRedemption } from './redeem/useRedemption';
import { useSandboxMode } from './redeem/useSandboxMode';
import './earning/earning.css';
import './redeem/redeem.css';

/**
 * /iccid: redeem points (or claim an admin's data gift) for a new eSIM or a top-up of an existing
 * one (spec section 2). Reachable from 1000 points, or with a gift to claim.
 */
export default function IccidPage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  useDocumentTitle(t('redeem.title'));
  const gifts = useQuery<GiftsResponse>({ queryKey: GIFTS_QUERY_KEY });
  // Decided once, on arrival: a redemption lowers the balance at once (its points are reserved),
  // and the page must then stay to show the outcome rather than send the person away.
  const [entry, setEntry] = useState<'pending' | 'open' | 'locked'>(() =>
    (user?.points ?? 0) >= REDEMPTION_THRESHOLD_POINTS ? 'open' : 'pending',
  );
  const pendingGifts = useMemo<PendingGift[]>(() => gifts.data?.pendingGifts ?? [], [gifts.data]);

  useEffect(() => {
    if (entry !== 'pending' || gifts.isPending) return;
    setEntry(pendingGifts.length > 0 ? 'open' : 'locked');
  }, [entry, gifts.isPending, pendingGifts.length]);

  if (!user) return null;
  if (entry === 'locked') return <Locked points={user.points} />;
  if (entry === 'pending') return <FullPageSpinner label={t('common.loading')} />;
  return <RedeemScreen user={user} gifts={pendingGifts} />;
}

/** Below 1000 points and with no gift: back to the dashboard, saying why. */
function Locked({ points }: { points: number }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  useEffect(() => {
    const n = (value: number) => formatNumber(value, i18n.language);
    toast({
      title: t('redeem.locked.title'),
      description: t('redeem.locked.text', { goal: n(REDEMPTION_THRESHOLD_POINTS), missing: n(REDEMPTION_THRESHOLD_POINTS - points) }),
    });
  }, [toast, t, i18n.language, points]);
  return <Navigate to="/dashboard" replace />;
}

function RedeemScreen({ user, gifts }: { user: UserView; gifts: PendingGift[] }) {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const sandbox = useSandboxMode();
  const redemption = useRedemption();
  const n = (value: number) => formatNumber(value, i18n.language);

  // The wallet's Top up button opens /iccid?iccid=…: start on the existing-eSIM option, filled in.
  const topUpIccid = params.get('iccid') ?? '';
  const [purchaseType, setPurchaseType] = useState<PurchaseType>(topUpIccid ? 'existing' : 'new');
  const [country, setCountry] = useState<ClaimCountry>('US');
  // A gift opens on its own plan (the dashboard's and the email's link name it: ?gift=<id>), else the oldest gift's.
  const [planTier, setPlanTier] = useState<RedeemablePlanTier>(() => (gifts.find((g) => g.giftId === params.get('gift')) ?? gifts[0])?.planTier ?? '1GB');
  const [payWith, setPayWith] = useState<PayWith>('gift');
  const [iccid, setIccid] = useState(topUpIccid);
  const [iccidError, setIccidError] = useState<string | null>(null);
  const iccidRef = useRef<HTMLInputElement>(null);
  const processingRef = useRef<HTMLDivElement>(null);

  const plan = redeemablePlan(planTier);
  const access = planAccess(user.points, plan, gifts);
  const call = chooseRedeemCall(access, payWith);
  const gift = coveringGift(gifts, plan);
  const busy = redemption.pending || redemption.outcome === 'redirecting';
  const label = submitLabel(busy, call, purchaseType);
  const countries = useMemo(
    () => CLAIM_COUNTRIES.map((code) => ({ value: code, label: countryName(code, i18n.language) })),
    [i18n.language],
  );

  useEffect(() => {
    if (redemption.outcome === 'processing' || redemption.outcome === 'review') processingRef.current?.querySelector('h2')?.focus();
  }, [redemption.outcome]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    let body: RedeemRequest;
    if (purchaseType === 'existing') {
      const value = normalizeIccid(iccid);
      if (!isValidIccid(value)) {
        setIccidError(t('redeem.iccid.invalid'));
        iccidRef.current?.focus();
        return;
      }
      body = { planTier, purchaseType, iccid: value };
    } else {
      body = { planTier, purchaseType, country };
    }
    redemption.submit(call, body, { pointsCost: plan.pointsCost, balance: user.points });
  };

  const submitText =
    label === 'processing'
      ? t('redeem.submit.processing')
      : label === 'claimFree'
        ? t('redeem.submit.claimFree')
        : t(label === 'purchase' ? 'redeem.submit.purchase' : 'redeem.submit.addData', { points: n(plan.pointsCost) });

  return (
    <main id="main" className="page redeem">
      <PageHeader title={t('redeem.title')} subtitle={t('redeem.subtitle')} back={{ to: '/task', label: t('redeem.back') }} />
      <RedemptionStandingCard />
      <RedeemBanner points={user.points} taskCompleted={params.get('task') === 'completed'} hasGift={gifts.length > 0} />
      {redemption.outcome === 'processing' || redemption.outcome === 'review' ? (
        <div ref={processingRef} className="processing-focus">
          <WaitingNotice kind={redemption.outcome} />
        </div>
      ) : (
        <form className="stack stack--lg redeem-form" noValidate onSubmit={onSubmit} aria-label={t('redeem.formLabel')}>
          <PurchaseTypeChoice value={purchaseType} onChange={setPurchaseType} />
          {purchaseType === 'existing' ? (
            <IccidField
              ref={iccidRef}
              value={iccid}
              error={iccidError}
              sandbox={sandbox}
              onChange={(value) => {
                setIccid(value);
                // Clear a shown error as soon as the number becomes valid; new errors wait for blur or submit.
                if (iccidError && isValidIccid(value)) setIccidError(null);
              }}
              onBlur={() => setIccidError(iccid.trim() && !isValidIccid(iccid) ? t('redeem.iccid.invalid') : null)}
            />
          ) : (
            <Select
              label={t('redeem.country.label')}
              hint={t('redeem.country.hint')}
              options={countries}
              value={country}
              onChange={(event) => setCountry(event.currentTarget.value as ClaimCountry)}
            />
          )}
          <PlanChoice value={planTier} onChange={setPlanTier} points={user.points} gifts={gifts} />
          {access === 'both' && gift && <PayWithChoice value={payWith} onChange={setPayWith} gift={gift} plan={plan} />}
          {purchaseType === 'new' && <WhatYouGet plan={plan} countryLabel={countryName(country, i18n.language)} />}
          <CostLine plan={plan} points={user.points} paidByGift={call === 'gift-data' && access !== 'locked'} />
          <Button
            type="submit"
            variant="gold"
            size="lg"
            block
            busy={busy}
            busyText={submitText}
            icon={call === 'gift-data' ? <GiftIcon size={20} /> : <SimIcon size={20} />}
            data-testid="redeem-submit"
          >
            {submitText}
          </Button>
        </form>
      )}
      <CaptchaDialog {...redemption.captcha} description={t('redeem.captcha')} />
    </main>
  );
}
