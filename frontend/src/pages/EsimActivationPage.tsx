import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { formatNumber } from '../lib/format';
import {
  AlertIcon,
  Button,
  ButtonLink,
  Card,
  CheckIcon,
  DocIcon,
  EmptyState,
  ExternalIcon,
  HomeIcon,
  PageHeader,
  ShieldIcon,
  Spinner,
  useToast,
} from '../ui';
import { resolveActivation, type ActivationView } from './activation/activationSource';
import { InstallOptions } from './activation/InstallOptions';
import { appleOneTapUrl, detectPlatform, parseLpa, supportsAppleOneTap } from './activation/lpa';
import { QrImage } from './activation/QrImage';
import { SetupTabs } from './activation/SetupTabs';
import { useCopy } from './activation/useCopy';
import { readActivationData } from './redeem/activationData';
import './earning/earning.css';
import './activation/activation.css';

/** KeepGo's help centre for eSIM owners (the provider of the lines). */
export const KEEPGO_HELP_URL = 'https://faq.keepgo.com/';

/**
 * /esim-activation (spec section 2): the eSIM of `?iccid=&lpa=` or of the last redemption, with its
 * ways to install it (the one to try first on this device at the head: Apple's one-tap link on iOS
 * 17.4+, Android's direct link, the QR code from another screen, manual entry), its QR code,
 * activation code, phone number and ICCID, setup steps for iPhone and Android (the tab of the device
 * first), troubleshooting and compatibility.
 */
export default function EsimActivationPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('activation.title'));
  const [params] = useSearchParams();
  const iccid = params.get('iccid');
  const lpa = params.get('lpa');
  const view = useMemo(() => resolveActivation({ iccid, lpa }, readActivationData()), [iccid, lpa]);
  return (
    <main id="main" className="page activation">
      <PageHeader
        title={t('activation.title')}
        subtitle={view ? t('activation.subtitle') : undefined}
        back={{ to: '/dashboard', label: t('common.backToDashboard') }}
      />
      {view ? <Activation view={view} /> : <NoActivation />}
    </main>
  );
}

/** Spec: with no data, a loading message and a way back to the dashboard. */
function NoActivation() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        icon={<Spinner size="lg" />}
        title={t('activation.empty.title')}
        description={t('activation.empty.text')}
        action={
          <ButtonLink to="/dashboard" size="lg" block icon={<HomeIcon size={20} />}>
            {t('common.backToDashboard')}
          </ButtonLink>
        }
      />
    </Card>
  );
}

function Activation({ view }: { view: ActivationView }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const copy = useCopy();
  const n = (value: number) => formatNumber(value, i18n.language);
  const userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const platform = detectPlatform(userAgent, typeof navigator === 'undefined' ? 0 : navigator.maxTouchPoints);
  const oneTap = supportsAppleOneTap(userAgent);
  const parts = parseLpa(view.lpaCode);
  const oneTapUrl = appleOneTapUrl(view.lpaCode);

  const copyLpa = async () => {
    const ok = await copy(view.lpaCode);
    toast(
      ok
        ? { title: t('activation.copy.done'), description: t('activation.copy.doneText'), variant: 'success' }
        : { title: t('activation.copy.failed'), description: t('activation.copy.failedText'), variant: 'destructive' },
    );
  };

  const steps = (platformKey: 'iphone' | 'android') => (
    <ol className="steps-list">
      {[1, 2, 3, 4, 5].map((step) => (
        <li key={step}>
          <span className="icon-badge steps-list__number" aria-hidden="true">
            {step}
          </span>
          <span>{t(`activation.${platformKey}.step${step}`)}</span>
        </li>
      ))}
    </ol>
  );

  return (
    <>
      <div className="banner banner--success" role="note" data-testid="activation-banner">
        <span className="banner__icon" aria-hidden="true">
          <CheckIcon size={20} />
        </span>
        <div>
          <p className="banner__title">{t('activation.banner.title')}</p>
          <p className="banner__text">
            {view.amountGB
              ? t('appCopy.planReady', { count: view.amountGB, gb: n(view.amountGB), points: n(view.pointsUsed ?? 0) })
              : t('activation.banner.textNoAmount')}
          </p>
        </div>
      </div>

      <InstallOptions lpaCode={view.lpaCode} parts={parts} platform={platform} appleOneTap={oneTap} qrCardId="qr-card" />

      <Card title={t('activation.qr.title')} titleId="qr-title" className="qr-card" id="qr-card">
        <QrImage lpaCode={view.lpaCode} qrCode={view.qrCode} />
        <p className="muted small qr-card__hint">{t('activation.qr.hint')}</p>
      </Card>

      <Card title={t('activation.details.title')} titleId="details-title">
        <dl className="esim-details">
          <div className="esim-details__lpa">
            <dt>{t('activation.details.lpa')}</dt>
            <dd>
              <code dir="ltr" className="esim-details__code" data-testid="activation-lpa">
                {view.lpaCode}
              </code>
              <Button variant="secondary" size="sm" onClick={() => void copyLpa()} aria-label={t('activation.copy.labelled')}>
                {t('activation.copy.short')}
              </Button>
            </dd>
          </div>
          <div>
            <dt>{t('activation.details.phone')}</dt>
            <dd data-testid="activation-phone">
              {view.msisdn ? <span dir="ltr">{view.msisdn}</span> : t('activation.details.phoneLater')}
            </dd>
          </div>
          <div>
            <dt>{t('activation.details.iccid')}</dt>
            <dd dir="ltr" className="esim-details__mono" data-testid="activation-iccid">
              {view.iccid ?? '—'}
            </dd>
          </div>
        </dl>
      </Card>

      <Card title={t('activation.guide.title')} titleId="guide-title">
        <SetupTabs
          label={t('activation.guide.tabsLabel')}
          initial={platform === 'android' ? 'android' : 'iphone'}
          tabs={[
            {
              key: 'iphone',
              label: t('activation.iphone.tab'),
              panel: (
                <div className="stack">
                  {steps('iphone')}
                  <p className="small muted">
                    {t('activation.iphone.oneTapNote')} <a href={oneTapUrl}>{t('activation.oneTap.button')}</a>
                  </p>
                </div>
              ),
            },
            { key: 'android', label: t('activation.android.tab'), panel: steps('android') },
          ]}
        />
      </Card>

      <Card title={t('activation.trouble.title')} titleId="trouble-title">
        <ul className="icon-list">
          {[1, 2, 3, 4].map((i) => (
            <li key={i}>
              <AlertIcon size={18} />
              <span>{t(`activation.trouble.item${i}`)}</span>
            </li>
          ))}
        </ul>
      </Card>

      <Card title={t('activation.devices.title')} titleId="devices-title">
        <ul className="icon-list icon-list--ok">
          {(['iphone', 'samsung', 'pixel'] as const).map((device) => (
            <li key={device}>
              <CheckIcon size={18} />
              <span>{t(`activation.devices.${device}`)}</span>
            </li>
          ))}
        </ul>
        <p className="small muted">{t('activation.devices.note')}</p>
      </Card>

      <div className="stack stack--sm activation-actions">
        <ButtonLink to="/dashboard" size="lg" block icon={<CheckIcon size={20} />}>
          {t('activation.actions.done')}
        </ButtonLink>
        <Button variant="secondary" size="lg" block icon={<DocIcon size={20} />} onClick={() => void copyLpa()}>
          {t('activation.actions.copy')}
        </Button>
        <a className="btn btn--ghost btn--lg btn--block" href={KEEPGO_HELP_URL} target="_blank" rel="noopener noreferrer">
          <ShieldIcon size={20} />
          <span>{t('activation.actions.help')}</span>
          <ExternalIcon size={16} />
          <span className="visually-hidden">({t('common.opensInNewTab')})</span>
        </a>
      </div>
    </>
  );
}
