import { useTranslation } from 'react-i18next';
import { Button, Card, DocIcon, ExternalIcon, SimIcon, useToast } from '../../ui';
import { installOrder, type InstallMethod } from './installOrder';
import { androidInstallUrl, appleOneTapUrl, type DevicePlatform, type LpaParts } from './lpa';
import { useCopy } from './useCopy';

interface InstallOptionsProps {
  lpaCode: string;
  parts: LpaParts | null;
  platform: DevicePlatform;
  appleOneTap: boolean;
  /** The id of the QR code card, which the QR option points to. */
  qrCardId: string;
}

/**
 * Every way to install the eSIM on this device, the one to try first at the head and marked
 * (docs/wallet.md, "Installing on any phone"): Apple's one-tap link, Android's direct link (best
 * effort), the QR code scanned from another screen, and manual entry with the SM-DP+ address and
 * the activation code apart, each with a copy button, and the confirmation code the phone will ask
 * for when the code's flag says so.
 */
export function InstallOptions({ lpaCode, parts, platform, appleOneTap, qrCardId }: InstallOptionsProps) {
  const { t } = useTranslation();
  const order = installOrder(platform, appleOneTap);
  const intro = platform === 'android' ? 'introAndroid' : platform === 'iphone' ? (appleOneTap ? 'introIphone' : 'introIphoneOld') : 'introOther';
  return (
    <Card title={t('activation.install.title')} titleId="install-title" className="install-options" data-testid="install-options">
      <p className="muted small" data-testid="install-first">
        {t(`activation.install.${intro}`)}
      </p>
      <ol className="install-options__list">
        {order.map((method, index) => (
          <li key={method} className="install-option" data-testid={`install-${method}`}>
            <InstallOption method={method} first={index === 0} lpaCode={lpaCode} parts={parts} qrCardId={qrCardId} />
          </li>
        ))}
      </ol>
    </Card>
  );
}

function InstallOption({ method, first, lpaCode, parts, qrCardId }: { method: InstallMethod; first: boolean; lpaCode: string; parts: LpaParts | null; qrCardId: string }) {
  const { t } = useTranslation();
  const titleId = `install-${method}-title`;
  const title = {
    appleOneTap: t('activation.oneTap.title'),
    androidLink: t('activation.install.androidTitle'),
    qr: t('activation.install.qrTitle'),
    manual: t('activation.install.manualTitle'),
  }[method];
  return (
    <section aria-labelledby={titleId} className="stack stack--sm">
      <h3 id={titleId} className="install-option__title">
        <span>{title}</span>
        {first && <span className="badge badge--success">{t('activation.install.first')}</span>}
      </h3>
      {method === 'appleOneTap' && (
        <>
          <p className="muted small">{t('activation.oneTap.text')}</p>
          <a className="btn btn--primary btn--lg btn--block" href={appleOneTapUrl(lpaCode)} data-testid="apple-one-tap">
            <SimIcon size={20} />
            <span>{t('activation.oneTap.button')}</span>
          </a>
        </>
      )}
      {method === 'androidLink' && (
        <>
          <p className="muted small">{t('activation.install.androidText')}</p>
          <a className={`btn ${first ? 'btn--primary' : 'btn--secondary'} btn--lg btn--block`} href={androidInstallUrl(lpaCode)} data-testid="android-install">
            <SimIcon size={20} />
            <span>{t('activation.install.androidButton')}</span>
            <ExternalIcon size={16} />
          </a>
        </>
      )}
      {method === 'qr' && (
        <>
          <p className="muted small">{t('activation.install.qrText')}</p>
          <a className="small" href={`#${qrCardId}`}>
            {t('activation.install.qrLink')}
          </a>
        </>
      )}
      {method === 'manual' && <ManualEntry parts={parts} />}
    </section>
  );
}

/** Manual entry: what the phone's "Enter details manually" screen asks for, each copied on its own. */
function ManualEntry({ parts }: { parts: LpaParts | null }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const copy = useCopy();
  const copyValue = async (value: string, what: string) => {
    const ok = await copy(value);
    toast(
      ok
        ? { title: t('activation.copy.done'), description: t('activation.install.copied', { what }), variant: 'success' }
        : { title: t('activation.copy.failed'), description: t('activation.install.copyFailed'), variant: 'destructive' },
    );
  };
  if (!parts) return <p className="muted small">{t('activation.install.manualUnavailable')}</p>;
  const fields = [
    { key: 'smdp', label: t('activation.details.smdp'), value: parts.address, copyLabel: t('activation.install.copySmdp') },
    ...(parts.matchingId ? [{ key: 'code', label: t('activation.details.matchingId'), value: parts.matchingId, copyLabel: t('activation.install.copyCode') }] : []),
  ];
  return (
    <>
      <p className="muted small">{t('activation.install.manualText')}</p>
      <dl className="esim-details">
        {fields.map((field) => (
          <div key={field.key} className="esim-details__lpa">
            <dt>{field.label}</dt>
            <dd>
              <code dir="ltr" className="esim-details__code" data-testid={`manual-${field.key}`}>
                {field.value}
              </code>
              <Button variant="secondary" size="sm" icon={<DocIcon size={16} />} onClick={() => void copyValue(field.value, field.label)} aria-label={field.copyLabel}>
                {t('activation.copy.short')}
              </Button>
            </dd>
          </div>
        ))}
        {parts.confirmationRequired && (
          <div data-testid="manual-confirmation">
            <dt>{t('activation.install.confirmationTitle')}</dt>
            <dd className="install-option__confirmation">{t('activation.details.confirmation')}</dd>
          </div>
        )}
      </dl>
    </>
  );
}
