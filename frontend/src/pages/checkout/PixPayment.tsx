import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CreateEsimPaymentResponse, EsimPurchase, PaymentConfig } from '@esim/contracts';
import { formatPrice } from '../../lib/format';
import { AlertIcon, Button, CheckIcon, ClockIcon, RefreshIcon, Spinner } from '../../ui';
import { successPath } from './checkoutParams';
import { confirmPixInSandbox, confirmPixLive, settleSandboxPix, timeLeft, type PixOutcome } from './pixCode';
import type { SandboxTarget } from './sandboxStripe';

/** The purchases list, read again when the live stream says a payment landed (frontend/src/live/happenings.ts). */
const PURCHASES_QUERY_KEY = ['/api/esim-purchases'] as const;
/** If the live stream is down (a proxy, a lost connection), the list is read again this often anyway. */
const FALLBACK_CHECK_MS = 30_000;
/** How long "Payment received" stays in the status before /success, so a screen reader reads it out. */
const PAID_NOTICE_MS = 1_500;

/** A Pix code as a QR image (the qrcode library, loaded only when a code is shown). */
function useQrImage(data: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!data) return setUrl(null);
    let live = true;
    void import('qrcode').then((QRCode) =>
      QRCode.toDataURL(data, { errorCorrectionLevel: 'M', margin: 2, width: 256 }).then((u) => {
        if (live) setUrl(u);
      }),
    );
    return () => {
      live = false;
    };
  }, [data]);
  return url;
}

/** The current time, once a second while `running`. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * Pix at /checkout (Brazil, reais; docs/payments.md, "Pix"): the QR code and the copy-and-paste
 * code of the payment, a countdown to its expiry, and a status that moves to /success by itself
 * once the payment lands — the bank app pays Stripe, Stripe's webhook pays the purchase, and the
 * live stream says so (happenings.ts invalidates the purchases list this component watches). An
 * expired code is replaced with one tap (the same payment, confirmed again). In sandbox mode two
 * buttons stand in for the bank app.
 */
export function PixPayment({ config, payment }: { config: PaymentConfig; payment: CreateEsimPaymentResponse }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const codeLabelId = useId();
  const target: SandboxTarget = {
    apiBase: config.apiBase ?? '',
    publishableKey: config.publishableKey,
    paymentIntentId: payment.paymentIntentId,
    clientSecret: payment.clientSecret,
  };
  // Each generation is one confirmation, that is one code; a query so that mounting twice does
  // not ask for two codes, and a new generation (the "new code" button) asks for the next one.
  const [generation, setGeneration] = useState(0);
  const [expiredEarly, setExpiredEarly] = useState(false);
  const [copied, setCopied] = useState(false);
  const [testBusy, setTestBusy] = useState<'pay' | 'expire' | null>(null);
  const pix = useQuery<PixOutcome>({
    queryKey: ['pix-code', payment.paymentIntentId, generation],
    queryFn: () => (config.mode === 'live' ? confirmPixLive(config.publishableKey, payment.clientSecret) : confirmPixInSandbox(target)),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const purchases = useQuery<EsimPurchase[]>({ queryKey: PURCHASES_QUERY_KEY, refetchInterval: FALLBACK_CHECK_MS });
  const paid = pix.data?.kind === 'paid' || purchases.data?.some((p) => p.id === payment.purchaseId) === true;

  // Paid while the code was on screen (the live stream): the status region says so first, then the
  // page moves on. Paid at once (a code confirmed after the payment landed): straight to /success.
  const paidNotice = paid && pix.data?.kind === 'code';
  useEffect(() => {
    if (!paid) return;
    const go = () => navigate(successPath(payment.paymentIntentId, payment.planType), { replace: true });
    if (!paidNotice) {
      go();
      return;
    }
    const timer = window.setTimeout(go, PAID_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [paid, paidNotice, navigate, payment.paymentIntentId, payment.planType]);

  const code = pix.data?.kind === 'code' ? pix.data.code : null;
  const qr = useQrImage(code?.data ?? null);
  const now = useNow(code !== null && !expiredEarly);
  const left = code ? timeLeft(code.expiresAtMs, now) : null;
  const expired = expiredEarly || (left !== null && left.seconds === 0);

  const newCode = () => {
    setExpiredEarly(false);
    setCopied(false);
    setGeneration((g) => g + 1);
  };
  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code.data);
      setCopied(true);
    } catch {
      // No clipboard (an old browser, a denied permission): the code stays selectable in its field.
      setCopied(false);
    }
  };
  const settle = async (outcome: 'pay' | 'expire') => {
    setTestBusy(outcome);
    const ok = await settleSandboxPix(target, outcome);
    setTestBusy(null);
    if (ok && outcome === 'expire') setExpiredEarly(true);
  };

  if (pix.isPending || (paid && !paidNotice)) {
    return (
      <div className="checkout-loading">
        <Spinner label={paid ? t('pix.paid') : t('pix.loading')} />
      </div>
    );
  }
  if (!code) {
    const message = pix.data?.kind === 'failed' ? pix.data.message : t('checkout.failure.unreachable');
    return (
      <div className="stack">
        <p className="form-error" role="alert" data-testid="pix-error">
          {message}
        </p>
        <Button onClick={newCode} icon={<RefreshIcon size={20} />}>
          {t('pix.retry')}
        </Button>
      </div>
    );
  }

  return (
    <div className="stack pix" data-testid="pix-payment">
      {config.mode === 'sandbox' && !paid && (
        <div className="banner sandbox-banner" role="note">
          <span className="banner__icon" aria-hidden="true">
            <AlertIcon size={20} />
          </span>
          <div>
            <p className="banner__title">{t('pix.sandbox.title')}</p>
            <p className="banner__text">{t('pix.sandbox.text')}</p>
            <div className="pix__test-actions">
              <Button size="sm" variant="secondary" busy={testBusy === 'pay'} disabled={expired || testBusy !== null} onClick={() => void settle('pay')}>
                {t('pix.sandbox.pay')}
              </Button>
              <Button size="sm" variant="ghost" busy={testBusy === 'expire'} disabled={expired || testBusy !== null} onClick={() => void settle('expire')}>
                {t('pix.sandbox.expire')}
              </Button>
            </div>
          </div>
        </div>
      )}

      <p className="pix__amount">{t('pix.amount', { amount: formatPrice(payment.amount, payment.currency, i18n.language) })}</p>

      {paid ? null : expired ? (
        <div className="stack pix__expired" data-testid="pix-expired">
          <p role="alert" className="form-error">
            {t('pix.expired')}
          </p>
          <Button size="lg" block onClick={newCode} icon={<RefreshIcon size={20} />}>
            {t('pix.newCode')}
          </Button>
        </div>
      ) : (
        <>
          <ol className="pix__steps">
            <li>{t('pix.steps.open')}</li>
            <li>{t('pix.steps.scan')}</li>
            <li>{t('pix.steps.wait')}</li>
          </ol>
          <div className="pix__qr">
            {qr ? <img src={qr} width={224} height={224} alt={t('pix.qrAlt', { amount: formatPrice(payment.amount, payment.currency, i18n.language) })} data-testid="pix-qr" /> : <Spinner label={t('pix.loading')} />}
          </div>
          <div className="stack pix__code">
            <label id={codeLabelId} htmlFor={`${codeLabelId}-code`}>
              {t('pix.codeLabel')}
            </label>
            <textarea id={`${codeLabelId}-code`} className="input pix__code-text" readOnly rows={3} dir="ltr" value={code.data} data-testid="pix-code" onFocus={(e) => e.currentTarget.select()} />
            <Button block variant="secondary" onClick={() => void copy()} icon={copied ? <CheckIcon size={20} /> : undefined} data-testid="pix-copy">
              {copied ? t('pix.copied') : t('pix.copy')}
            </Button>
            <span className="visually-hidden" role="status">
              {copied ? t('pix.copiedAnnounce') : ''}
            </span>
          </div>
          <p className="pix__countdown muted">
            <ClockIcon size={16} />
            <span>
              {t('pix.expiresIn')}{' '}
              <time role="timer" aria-live="off" dir="ltr" data-testid="pix-countdown">
                {left?.text}
              </time>
            </span>
          </p>
        </>
      )}
      {/* One live region for the whole wait, present from the start, so the change to "received"
          (which the live stream brings, without a reload) is announced. */}
      <p className="pix__status" role="status" aria-live="polite" data-testid="pix-status" data-state={paid ? 'paid' : expired ? 'expired' : 'waiting'}>
        {paid ? (
          <>
            <CheckIcon size={16} /> <span>{t('pix.paid')}</span>
          </>
        ) : expired ? null : (
          <>
            <Spinner size="sm" /> <span>{t('pix.waiting')}</span>
          </>
        )}
      </p>
    </div>
  );
}
