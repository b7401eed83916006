import { useMemo, useState, type FormEvent } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CreateEsimPaymentResponse } from '@esim/contracts';
import { successPath } from './checkoutParams';
import { PaySubmit } from './PaySubmit';
import { usePaymentFailure } from './paymentFailure';
import { stripeLocale } from './stripeLocale';

const loaded = new Map<string, Promise<Stripe | null>>();
/** Stripe.js from Stripe's own servers (it must never be bundled), once per key. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

/**
 * Live mode: Stripe's Payment Element for the intent. Stripe confirms it and comes back to
 * /success?plan=… with `payment_intent` added; a refusal stays here with Stripe's message.
 * Lazy-loaded by CheckoutPage, so the sandbox never downloads any of it.
 */
export default function StripeCardForm({
  publishableKey,
  payment,
  payLabel,
}: {
  publishableKey: string;
  payment: CreateEsimPaymentResponse;
  payLabel: string;
}) {
  const { i18n } = useTranslation();
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements
      stripe={stripe}
      options={{
        clientSecret: payment.clientSecret,
        locale: stripeLocale(i18n.language),
        appearance: { theme: 'stripe', variables: { colorPrimary: '#4c3bcf' } },
      }}
    >
      <PaymentForm payment={payment} payLabel={payLabel} />
    </Elements>
  );
}

function PaymentForm({ payment, payLabel }: { payment: CreateEsimPaymentResponse; payLabel: string }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const paymentFailed = usePaymentFailure();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    // Stripe appends payment_intent (and its client secret) to the return URL (spec section 7).
    const returnUrl = new URL('/success', window.location.origin);
    returnUrl.searchParams.set('plan', payment.planType);
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl.toString() }, redirect: 'if_required' });
    if (result.error) {
      setBusy(false);
      const message = result.error.message ?? null;
      setError(message ?? t('checkout.failure.default'));
      paymentFailed(message);
      return;
    }
    // Paid without leaving the page (no bank authentication was needed).
    navigate(successPath(result.paymentIntent.id, payment.planType));
  };

  return (
    <form className="stack card-form" onSubmit={(e) => void onSubmit(e)} aria-labelledby="payment-title" data-testid="stripe-card-form">
      <PaymentElement />
      <PaySubmit error={error} busy={busy} disabled={!stripe || !elements} label={payLabel} />
    </form>
  );
}
