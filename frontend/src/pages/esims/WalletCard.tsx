import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { countryName, formatDate, formatNumber, formatPrice } from '../../lib/format';
import { BoltIcon, Button, ButtonLink, DocIcon, ExternalIcon, SimIcon, useToast } from '../../ui';
import { isImageDataUrl } from '../activation/activationSource';
import { activationPath } from '../checkout/purchaseOutcome';
import { maskIccid } from '../redeem/iccid';
import { AutoTopup } from './AutoTopup';
import { LineUsage } from './LineUsage';
import { OneTapTopUp } from './OneTapTopUp';
import { RefundPanel } from './RefundPanel';
import { qrFileName, topUpPath, type WalletEntry } from './wallet';
import { saveDataUrl, shareQrCode } from './shareQr';

const STATUS_KEYS: Record<string, string> = {
  activated: 'esims.status.ready',
  processing: 'esims.status.processing',
  pending: 'esims.status.processing',
  manual_delivery_required: 'esims.status.manual',
  refunded: 'esims.status.refunded',
  payment_failed: 'esims.status.paymentFailed',
};

/** One eSIM of the wallet (spec, /esims): plan, status, data, price, ICCID, date, QR, setup, usage, top-up. */
export function WalletCard({ entry }: { entry: WalletEntry }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const navigate = useNavigate();
  const n = (value: number) => formatNumber(value, i18n.language);
  const id = entry.key.replace(/[^A-Za-z0-9_-]/g, '-');
  const qr = isImageDataUrl(entry.qrCode) ? entry.qrCode : null;
  const title = t('esims.card.title', { plan: entry.planType });

  const openSetup = () => {
    if (!entry.lpaCode) {
      toast({ title: t('esims.setup.unavailableTitle'), description: t('esims.setup.unavailable'), variant: 'destructive' });
      return;
    }
    navigate(activationPath(entry.iccid, entry.lpaCode));
  };

  const share = async () => {
    if (!qr) return;
    const result = await shareQrCode({ dataUrl: qr, lpaCode: entry.lpaCode, fileName: qrFileName(entry.iccid), title });
    if (result === 'failed') toast({ title: t('esims.share.failedTitle'), description: t('esims.share.failed'), variant: 'destructive' });
  };

  return (
    <article className="card wallet-card" aria-labelledby={`${id}-title`} data-testid="wallet-entry">
      <header className="icon-row">
        <span className="icon-badge icon-badge--rounded wallet-card__icon" aria-hidden="true">
          <SimIcon size={22} />
        </span>
        <div className="wallet-card__heading">
          <h2 id={`${id}-title`} className="wallet-card__title">
            {title}
          </h2>
          <p className="muted small">{t(entry.paymentMethod === 'pix' ? 'esims.source.boughtPix' : `esims.source.${entry.source}`)}</p>
        </div>
        <span className={entry.ready ? 'badge badge--success' : 'badge badge--warning'} data-testid="wallet-status">
          {t(entry.cancelled ? 'esims.status.refundedCancelled' : (STATUS_KEYS[entry.status] ?? 'esims.status.processing'))}
        </span>
      </header>

      <dl className="detail-list">
        <div>
          <dt>{t('esims.details.data')}</dt>
          <dd data-testid="wallet-data">{t('common.gbValue', { value: n(entry.amountGB) })}</dd>
        </div>
        {entry.priceCents !== null && (
          <div>
            <dt>{t('esims.details.price')}</dt>
            <dd data-testid="wallet-price">{formatPrice(entry.priceCents, entry.currency ?? 'USD', i18n.language)}</dd>
          </div>
        )}
        {entry.country && (
          <div>
            <dt>{t('esims.details.country')}</dt>
            <dd>{countryName(entry.country, i18n.language)}</dd>
          </div>
        )}
        {entry.iccid && (
          <div>
            <dt>{t('esims.details.iccid')}</dt>
            <dd dir="ltr" data-testid="wallet-iccid">
              {maskIccid(entry.iccid)}
            </dd>
          </div>
        )}
        <div>
          <dt>{entry.source === 'bought' ? t('esims.details.purchased') : t('esims.details.received')}</dt>
          <dd>{formatDate(entry.date, i18n.language, { dateStyle: 'medium' })}</dd>
        </div>
      </dl>

      {entry.ready && qr && (
        <div className="wallet-qr">
          <img
            className="wallet-qr__image"
            src={qr}
            alt={t('esims.qr.alt', { plan: entry.planType })}
            width={200}
            height={200}
            data-testid="wallet-qr"
          />
          {entry.lpaCode && (
            <p className="wallet-qr__code">
              <span className="muted xs">{t('esims.qr.code')}</span>
              <code dir="ltr" data-testid="wallet-lpa">
                {entry.lpaCode}
              </code>
            </p>
          )}
          <div className="button-row">
            <Button
              variant="secondary"
              size="sm"
              icon={<ExternalIcon size={16} />}
              onClick={() => void share()}
              aria-label={t('esims.qr.shareLabelled', { plan: entry.planType })}
            >
              {t('esims.qr.share')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              icon={<DocIcon size={16} />}
              onClick={() => saveDataUrl(qr, qrFileName(entry.iccid))}
              aria-label={t('esims.qr.saveLabelled', { plan: entry.planType })}
            >
              {t('esims.qr.save')}
            </Button>
          </div>
        </div>
      )}

      {entry.ready && entry.iccid && <LineUsage iccid={entry.iccid} titleId={`${id}-usage`} />}
      {entry.ready && entry.iccid && <AutoTopup iccid={entry.iccid} />}

      <div className="stack stack--sm">
        {entry.ready ? (
          <>
            {(entry.lpaCode || entry.source === 'bought') && (
              <Button block icon={<SimIcon size={20} />} onClick={openSetup}>
                {t('esims.actions.setup')}
              </Button>
            )}
            {entry.iccid && <OneTapTopUp iccid={entry.iccid} plan={entry.planType} />}
            {entry.iccid && (
              <ButtonLink
                to={topUpPath(entry.iccid)}
                variant="secondary"
                block
                icon={<BoltIcon size={20} />}
                aria-label={t('esims.actions.topUpLabelled', { plan: entry.planType })}
              >
                {t('esims.actions.topUp')}
              </ButtonLink>
            )}
          </>
        ) : entry.status === 'refunded' || entry.cancelled ? null : (
          <Button block disabled data-testid="wallet-processing">
            {t('esims.actions.processing')}
          </Button>
        )}
        <RefundPanel entry={entry} />
      </div>
    </article>
  );
}
