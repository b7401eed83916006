import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CreateEsimPaymentResponse, PaymentConfig } from '@esim/contracts';
import { formatPrice } from '../../lib/format';
import { AlertIcon, Input } from '../../ui';
import { formatCardNumber, formatExpiry, readCard, SANDBOX_TEST_CARDS, type CardField, type CardFieldError } from './cardInput';
import { successPath } from './checkoutParams';
import { PaySubmit } from './PaySubmit';
import { usePaymentFailure } from './paymentFailure';
import { confirmWithCard, retrieveIntent, type SandboxTarget } from './sandboxStripe';

/**
 * Sandbox mode: the card form in place of Stripe's Payment Element, talking to the Stripe emulator
 * with the requests Stripe.js would send (docs/payments.md). It says loudly that it is a test.
 */
export function SandboxCardForm({
  config,
  payment,
  payLabel,
}: {
  config: PaymentConfig;
  payment: CreateEsimPaymentResponse;
  payLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const paymentFailed = usePaymentFailure();
  const target: SandboxTarget = {
    apiBase: config.apiBase ?? '',
    publishableKey: config.publishableKey,
    paymentIntentId: payment.paymentIntentId,
    clientSecret: payment.clientSecret,
  };
  // As Stripe.js does before showing the form: the intent as the provider holds it.
  const intent = useQuery({
    queryKey: ['sandbox-stripe-intent', payment.paymentIntentId],
    queryFn: ({ signal }) => retrieveIntent(target, signal),
    staleTime: Infinity,
    gcTime: 0,
  });
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<Partial<Record<CardField, CardFieldError>>>({});
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const numberRef = useRef<HTMLInputElement>(null);
  const expiryRef = useRef<HTMLInputElement>(null);
  const cvcRef = useRef<HTMLInputElement>(null);

  // Already paid (a second tab, the back button): nothing to pay, go and confirm it.
  useEffect(() => {
    if (intent.data?.status === 'succeeded') navigate(successPath(payment.paymentIntentId, payment.planType), { replace: true });
  }, [intent.data?.status, navigate, payment.paymentIntentId, payment.planType]);

  const fieldError = (field: CardField) => {
    const e = errors[field];
    return e ? t(`checkout.card.errors.${field}.${e}`) : undefined;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const read = readCard({ number, expiry, cvc });
    if ('errors' in read) {
      setErrors(read.errors);
      (read.errors.number ? numberRef : read.errors.expiry ? expiryRef : cvcRef).current?.focus();
      return;
    }
    setErrors({});
    setDeclined(null);
    setBusy(true);
    const returnUrl = `${window.location.origin}${successPath(payment.paymentIntentId, payment.planType)}`;
    const outcome = await confirmWithCard(target, read.card, returnUrl);
    if (outcome.kind === 'succeeded') {
      navigate(successPath(outcome.intent.id, payment.planType));
      return;
    }
    setBusy(false);
    const message = outcome.kind === 'failed' ? outcome.message : t('checkout.failure.unreachable');
    setDeclined(message);
    paymentFailed(message);
  };

  return (
    <form
      className="stack card-form"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      aria-labelledby="payment-title"
      data-testid="sandbox-card-form"
    >
      <div className="banner sandbox-banner" role="note">
        <span className="banner__icon" aria-hidden="true">
          <AlertIcon size={20} />
        </span>
        <div>
          <p className="banner__title">{t('checkout.sandbox.title')}</p>
          <p className="banner__text">{t('checkout.sandbox.text')}</p>
          <ul className="test-cards" aria-label={t('checkout.sandbox.cardsLabel')}>
            {SANDBOX_TEST_CARDS.map((card) => (
              <li key={card.number}>
                <code dir="ltr">{formatCardNumber(card.number)}</code>
                <span className="test-cards__outcome">{t(`checkout.sandbox.outcome.${card.outcome}`)}</span>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setNumber(formatCardNumber(card.number));
                    setErrors((e) => ({ ...e, number: undefined }));
                    numberRef.current?.focus();
                  }}
                  aria-label={t('checkout.sandbox.useLabelled', { number: formatCardNumber(card.number) })}
                >
                  {t('checkout.sandbox.use')}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>

      <Input
        ref={numberRef}
        label={t('checkout.card.number')}
        value={number}
        onChange={(e) => setNumber(formatCardNumber(e.currentTarget.value))}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        dir="ltr"
        error={fieldError('number')}
        required
      />
      <div className="grid-2">
        <Input
          ref={expiryRef}
          label={t('checkout.card.expiry')}
          value={expiry}
          onChange={(e) => setExpiry(formatExpiry(e.currentTarget.value))}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t('checkout.card.expiryPlaceholder')}
          dir="ltr"
          error={fieldError('expiry')}
          required
        />
        <Input
          ref={cvcRef}
          label={t('checkout.card.cvc')}
          value={cvc}
          onChange={(e) => setCvc(e.currentTarget.value.replace(/\D/g, '').slice(0, 4))}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          dir="ltr"
          error={fieldError('cvc')}
          required
        />
      </div>

      <PaySubmit error={declined} busy={busy} disabled={intent.isPending} label={payLabel} />
      {intent.data && (
        <p className="muted small text-center" data-testid="charge-note">
          {t('checkout.chargeNote', { amount: formatPrice(intent.data.amount, intent.data.currency, i18n.language) })}
        </p>
      )}
    </form>
  );
}
