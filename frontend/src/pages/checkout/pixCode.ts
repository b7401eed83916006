import type { SandboxTarget } from './sandboxStripe';

/**
 * Getting a Pix code for an intent and, in the sandbox, settling it (docs/payments.md, "Pix").
 * Confirming a Pix PaymentIntent answers `requires_action` with `next_action.pix_display_qr_code`:
 * the copy-and-paste code (`data`), its expiry (`expires_at`, Unix seconds) and Stripe's hosted
 * instructions page. The payment itself lands later, announced by Stripe's webhook.
 */
export interface PixCode {
  /** The "Pix copia e cola" code a bank app reads (the QR code shows the same). */
  data: string;
  /** When the code stops being payable, in milliseconds since the epoch. */
  expiresAtMs: number;
  hostedInstructionsUrl: string | null;
}

export type PixOutcome =
  | { kind: 'code'; code: PixCode }
  /** Already paid (another tab, a second visit): nothing to show, go and confirm it. */
  | { kind: 'paid' }
  | { kind: 'failed'; message: string }
  | { kind: 'unreachable' };

interface IntentLike {
  status?: unknown;
  next_action?: { type?: unknown; pix_display_qr_code?: { data?: unknown; expires_at?: unknown; hosted_instructions_url?: unknown } } | null;
}

/** Reads a PaymentIntent (the emulator's JSON, or Stripe.js's result) as a Pix outcome. */
export function pixOutcomeOf(intent: IntentLike | null | undefined): PixOutcome {
  if (intent?.status === 'succeeded') return { kind: 'paid' };
  const qr = intent?.next_action?.type === 'pix_display_qr_code' ? intent.next_action.pix_display_qr_code : undefined;
  if (intent?.status === 'requires_action' && qr && typeof qr.data === 'string' && typeof qr.expires_at === 'number') {
    return {
      kind: 'code',
      code: { data: qr.data, expiresAtMs: qr.expires_at * 1000, hostedInstructionsUrl: typeof qr.hosted_instructions_url === 'string' ? qr.hosted_instructions_url : null },
    };
  }
  return { kind: 'failed', message: `The payment was not completed (status: ${typeof intent?.status === 'string' ? intent.status : 'unknown'}).` };
}

const encode = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

/** Sandbox: `POST {apiBase}/v1/payment_intents/{id}/confirm` with `payment_method_data[type]=pix`, as Stripe.js sends it. */
export async function confirmPixInSandbox(t: SandboxTarget): Promise<PixOutcome> {
  let res: Response;
  try {
    res = await fetch(`${t.apiBase}/v1/payment_intents/${encodeURIComponent(t.paymentIntentId)}/confirm`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: encode({ key: t.publishableKey, client_secret: t.clientSecret, 'payment_method_data[type]': 'pix' }),
    });
  } catch {
    return { kind: 'unreachable' };
  }
  const body = (await res.json().catch(() => null)) as (IntentLike & { error?: { message?: unknown; payment_intent?: IntentLike } }) | null;
  if (res.ok) return pixOutcomeOf(body);
  // Confirming a paid intent is refused with the intent attached: it is paid, not failed.
  if (body?.error?.payment_intent?.status === 'succeeded') return { kind: 'paid' };
  if (res.status < 500 && typeof body?.error?.message === 'string') return { kind: 'failed', message: body.error.message };
  return { kind: 'unreachable' };
}

/** Live: Stripe.js confirms with Pix and hands the code back instead of opening its own dialog. */
export async function confirmPixLive(publishableKey: string, clientSecret: string): Promise<PixOutcome> {
  try {
    const { loadStripe } = await import('@stripe/stripe-js');
    const stripe = await loadStripe(publishableKey);
    if (!stripe) return { kind: 'unreachable' };
    const result = await stripe.confirmPixPayment(clientSecret, undefined, { handleActions: false });
    if (result.error) {
      if (result.error.payment_intent?.status === 'succeeded') return { kind: 'paid' };
      return { kind: 'failed', message: result.error.message ?? 'The payment failed.' };
    }
    return pixOutcomeOf(result.paymentIntent as IntentLike);
  } catch {
    return { kind: 'unreachable' };
  }
}

/** The sandbox's stand-in for the buyer's bank: settle the code now, or let it lapse (`{apiBase}/pix/{id}/pay|expire`). */
export async function settleSandboxPix(t: SandboxTarget, outcome: 'pay' | 'expire'): Promise<boolean> {
  try {
    const res = await fetch(`${t.apiBase}/pix/${encodeURIComponent(t.paymentIntentId)}/${outcome}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ client_secret: t.clientSecret }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** mm:ss (or h:mm:ss) left until `expiresAtMs`, never negative. */
export function timeLeft(expiresAtMs: number, nowMs: number): { seconds: number; text: string } {
  const seconds = Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  return { seconds, text: `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}` };
}
