import type { CardDetails } from './cardInput';

/**
 * The sandbox card form's calls to the Stripe emulator, the publishable-key requests Stripe.js
 * makes (libs/contracts/src/http/purchases.http.ts, docs/payments.md): retrieve the intent with its
 * client secret, confirm it with the card. Form-encoded, as Stripe.js sends them.
 */

export interface IntentSummary {
  id: string;
  status: string;
  amount: number;
  currency: string;
}

export type ConfirmOutcome =
  | { kind: 'succeeded'; intent: IntentSummary }
  /** The provider refused the payment (a declined card, a bad number): its message is for the person. */
  | { kind: 'failed'; message: string; code: string | null; declineCode: string | null }
  /** The provider could not be reached or answered something unreadable. */
  | { kind: 'unreachable' };

interface StripeErrorBody {
  error?: { message?: unknown; code?: unknown; decline_code?: unknown };
}

export interface SandboxTarget {
  apiBase: string;
  publishableKey: string;
  paymentIntentId: string;
  clientSecret: string;
}

const encode = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

const intentUrl = (t: SandboxTarget, suffix = '') => `${t.apiBase}/v1/payment_intents/${encodeURIComponent(t.paymentIntentId)}${suffix}`;

/** Stripe's form encoding of the confirm call with a card (`payment_method_data[card][number]`, …). */
export function confirmParams(t: SandboxTarget, card: CardDetails, returnUrl: string): Record<string, string> {
  return {
    key: t.publishableKey,
    client_secret: t.clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': card.number,
    'payment_method_data[card][exp_month]': String(card.expMonth),
    'payment_method_data[card][exp_year]': String(card.expYear),
    'payment_method_data[card][cvc]': card.cvc,
    return_url: returnUrl,
  };
}

/** Reads a confirm answer as Stripe.js reports it: the intent, or the error's message and codes. */
export function confirmOutcome(status: number, body: unknown): ConfirmOutcome {
  if (status >= 200 && status < 300) {
    const intent = body as Partial<IntentSummary> | null;
    if (intent && typeof intent.id === 'string' && intent.status === 'succeeded') {
      return {
        kind: 'succeeded',
        intent: { id: intent.id, status: intent.status, amount: Number(intent.amount), currency: String(intent.currency) },
      };
    }
    const state = intent && typeof intent.status === 'string' ? intent.status : 'unknown';
    return { kind: 'failed', message: `The payment was not completed (status: ${state}).`, code: null, declineCode: null };
  }
  const error = (body as StripeErrorBody | null)?.error;
  if (error && typeof error.message === 'string' && status < 500) {
    return {
      kind: 'failed',
      message: error.message,
      code: typeof error.code === 'string' ? error.code : null,
      declineCode: typeof error.decline_code === 'string' ? error.decline_code : null,
    };
  }
  return { kind: 'unreachable' };
}

/** `GET {apiBase}/v1/payment_intents/{id}?key=…&client_secret=…`. */
export async function retrieveIntent(t: SandboxTarget, signal?: AbortSignal): Promise<IntentSummary> {
  const res = await fetch(`${intentUrl(t)}?${encode({ key: t.publishableKey, client_secret: t.clientSecret })}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    signal,
  });
  const body = (await res.json().catch(() => null)) as (IntentSummary & StripeErrorBody) | null;
  if (!res.ok || !body || typeof body.id !== 'string') {
    throw new Error(typeof body?.error?.message === 'string' ? body.error.message : `payment provider answered ${res.status}`);
  }
  return { id: body.id, status: body.status, amount: body.amount, currency: body.currency };
}

/** `POST {apiBase}/v1/payment_intents/{id}/confirm` with the card. */
export async function confirmWithCard(t: SandboxTarget, card: CardDetails, returnUrl: string): Promise<ConfirmOutcome> {
  let res: Response;
  try {
    res = await fetch(intentUrl(t, '/confirm'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: encode(confirmParams(t, card, returnUrl)),
    });
  } catch {
    return { kind: 'unreachable' };
  }
  return confirmOutcome(res.status, await res.json().catch(() => null));
}
