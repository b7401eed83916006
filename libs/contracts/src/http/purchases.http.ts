import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { CHECKOUT_COUNTRIES, PREPAID_PLAN_IDS, PRICE_CURRENCIES } from '../catalogue/plans';
import { text } from './text.http';

/*
 * Card purchases over HTTP (docs/payments.md). Every route needs the session cookie; bodies are
 * JSON. Errors are the gateway's `{ message, code, reason? }` with a 4xx/5xx status.
 */

/**
 * How a purchase is paid: `card` (Stripe's card PaymentIntent, any currency) or `pix` (Brazil's
 * instant payments, reais only: a QR code / copy-and-paste code paid from a bank app, settled
 * later by Stripe's webhook).
 */
export const PAYMENT_METHODS = ['card', 'pix'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** `POST /api/create-esim-payment`. The amount charged comes from the catalogue, never from here. */
export const createEsimPaymentRequestSchema = z.object({
  planType: z.enum(PREPAID_PLAN_IDS, { error: 'Please select a data plan' }),
  country: z.enum(CHECKOUT_COUNTRIES, { error: 'Please choose a country' }),
  /** `card` when absent. `pix` only where the price is in reais (Brazil): otherwise 400 `pix_requires_brl`. */
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'Please choose card or Pix' }).default('card'),
});
export type CreateEsimPaymentRequest = z.infer<typeof createEsimPaymentRequestSchema>;

export const PAYMENT_CREATED_MESSAGE = 'Payment created. Complete the card payment to get your eSIM.';

/**
 * Answer of `POST /api/create-esim-payment`: hand `clientSecret` to Stripe.js (live) or to the
 * sandbox card form (see `paymentConfigSchema`). `amount` (minor units, the same as `amountCents`)
 * in `currency` is what the card will be charged: the catalogue's price in the country's currency
 * (reais for BR, US dollars elsewhere).
 */
export const createEsimPaymentResponseSchema = z.object({
  clientSecret: z.string(),
  message: z.string(),
  paymentIntentId: z.string(),
  purchaseId: z.string().uuid(),
  planType: z.enum(PREPAID_PLAN_IDS),
  country: z.enum(CHECKOUT_COUNTRIES),
  amountCents: z.number().int(),
  amount: z.number().int(),
  currency: z.enum(PRICE_CURRENCIES),
  /** What the intent accepts: confirm it with a card, or with `payment_method_data[type]=pix` for the QR code. */
  paymentMethod: z.enum(PAYMENT_METHODS),
});
export type CreateEsimPaymentResponse = z.infer<typeof createEsimPaymentResponseSchema>;

/** Stripe PaymentIntent ids: `pi_` and letters/digits. */
export const paymentIntentIdSchema = z
  .string({ error: 'paymentIntentId is required' })
  .regex(/^pi_[A-Za-z0-9]{1,200}$/, 'paymentIntentId must be a Stripe PaymentIntent id (pi_…)');

/** `POST /api/confirm-esim-purchase-by-intent`: what /success sends with the `payment_intent` query value. */
export const confirmEsimPurchaseRequestSchema = z.object({ paymentIntentId: paymentIntentIdSchema });
export type ConfirmEsimPurchaseRequest = z.infer<typeof confirmEsimPurchaseRequestSchema>;

/**
 * A purchase's life: `pending` (payment created, not paid), `payment_failed` (the last attempt was
 * declined; the same payment can still be paid), `processing` (paid, the eSIM is being issued),
 * `activated` (the eSIM is ready), `manual_delivery_required` (paid, but the eSIM could not be
 * issued: an operator delivers it), `refunded`.
 */
export const PURCHASE_STATUSES = ['pending', 'payment_failed', 'processing', 'activated', 'manual_delivery_required', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** The fragment the /success page looks for to add its "contact support for manual delivery" line. */
export const PROVISIONING_UNAVAILABLE_FRAGMENT = 'provisioning service temporarily unavailable';
export const PURCHASE_MESSAGES = {
  activated: 'eSIM purchased successfully. Your eSIM is ready to install.',
  processing: 'Payment received. Your eSIM is being prepared and will appear in My eSIMs shortly.',
  manual_delivery_required: `Payment received, but the eSIM could not be issued: ${PROVISIONING_UNAVAILABLE_FRAGMENT}.`,
  refunded: 'This purchase was refunded.',
} as const;

/** The support line of a purchase that needs manual delivery. */
export const manualDeliverySupportMessage = (purchaseId: string) =>
  `Your payment was processed successfully. Contact support with purchase reference ${purchaseId} and we will deliver your eSIM manually.`;

/**
 * Answer of `POST /api/confirm-esim-purchase-by-intent` (HTTP 200), the spec's purchase
 * confirmation plus `status` and `purchaseId`:
 * - `activated`: success true, iccid/lpaCode/qrCode set.
 * - `processing`: success true, the eSIM is not ready yet (the wait ran out); it shows in
 *   `GET /api/esim-purchases` when it lands, and confirming again answers the same way.
 * - `manual_delivery_required`: success false, `message` contains PROVISIONING_UNAVAILABLE_FRAGMENT,
 *   `support_message` says how to get the eSIM. The payment is kept.
 * Unknown intent 404 (reason `payment_not_found`), someone else's 403 (`payment_not_yours`), not
 * paid 409 (`payment_not_succeeded`, with the Stripe status in the message), Stripe unreachable 502.
 */
export const purchaseConfirmationSchema = z.object({
  success: z.boolean(),
  status: z.enum(['processing', 'activated', 'manual_delivery_required', 'refunded']),
  message: z.string(),
  support_message: z.string().nullable(),
  purchaseId: z.string().uuid(),
  planType: z.enum(PREPAID_PLAN_IDS),
  amountGB: z.number().int(),
  iccid: z.string().nullable(),
  lpaCode: z.string().nullable(),
  /** PNG data URL of the LPA code. */
  qrCode: z.string().nullable(),
});
export type PurchaseConfirmation = z.infer<typeof purchaseConfirmationSchema>;

/**
 * Why a purchase is not offered a self-serve refund (docs/payments.md, "Refunds"):
 * `not_activated` (no eSIM was delivered: support handles it), `window_passed` (REFUND_WINDOW_DAYS
 * after paying), `refund_pending` / `already_refunded` (a refund was asked for), and what the
 * provider reports of the line: `installed` (the eSIM is on a phone), `used` (data was spent),
 * `not_found` (the provider does not know the line), `unchecked` (the provider could not be asked
 * just now).
 */
export const REFUND_INELIGIBLE_REASONS = ['not_activated', 'window_passed', 'refund_pending', 'already_refunded', 'installed', 'used', 'not_found', 'unchecked'] as const;
export type RefundIneligibleReason = (typeof REFUND_INELIGIBLE_REASONS)[number];

/**
 * A purchase's refund eligibility, computed when the purchases are read from the provider's latest
 * report of the line: `eligible` only for an activated purchase inside its window whose eSIM the
 * provider reports never installed nor used; otherwise `reason`. `until` is the end of the window
 * (null when the purchase was never activated). Requesting the refund checks again.
 */
export const refundEligibilitySchema = z.object({
  eligible: z.boolean(),
  reason: z.enum(REFUND_INELIGIBLE_REASONS).nullable(),
  until: z.string().nullable(),
});
export type RefundEligibility = z.infer<typeof refundEligibilitySchema>;

/**
 * One entry of `GET /api/esim-purchases` (the caller's paid purchases, newest first; a payment
 * created but never paid is not listed). `priceCents` is in minor units of `currency`; `priceUSD`
 * is the same number under its older name (kept for existing clients; not always US dollars).
 */
export const esimPurchaseSchema = z.object({
  id: z.string().uuid(),
  planType: z.enum(PREPAID_PLAN_IDS),
  amountGB: z.number().int(),
  priceUSD: z.number().int(),
  priceCents: z.number().int(),
  currency: z.enum(PRICE_CURRENCIES),
  country: z.enum(CHECKOUT_COUNTRIES),
  paymentIntentId: z.string(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  status: z.enum(PURCHASE_STATUSES),
  iccid: z.string().nullable(),
  lpaCode: z.string().nullable(),
  /** PNG data URL of the LPA code, once activated. */
  qrCode: z.string().nullable(),
  createdAt: z.string(),
  activatedAt: z.string().nullable(),
  /**
   * Until when a refund may be asked for (paid + REFUND_WINDOW_DAYS), for an activated purchase;
   * null otherwise. Whether a refund is offered at all is `refund`.
   */
  refundableUntil: z.string().nullable(),
  /** When a self-serve refund went through, else null. */
  refundedAt: z.string().nullable(),
  /** Whether My eSIMs offers "Request a refund" now, and if not why (refundEligibilitySchema). */
  refund: refundEligibilitySchema,
});
export type EsimPurchase = z.infer<typeof esimPurchaseSchema>;

/** Where the card form talks to: Stripe itself (live) or the Stripe emulator behind the gateway. */
export const SANDBOX_STRIPE_BASE_PATH = '/sandbox/stripe';

/**
 * `GET /api/payment-config`: live → load Stripe.js with `publishableKey`; sandbox → no Stripe.js:
 * the card form calls the emulator at `apiBase` (relative to the app's origin) with the same
 * publishable-key requests Stripe.js makes (see `sandboxConfirmRequestSchema`).
 */
export const paymentConfigSchema = z.object({
  mode: z.enum(['live', 'sandbox']),
  publishableKey: z.string(),
  /** `SANDBOX_STRIPE_BASE_PATH` in sandbox mode, null when live. */
  apiBase: z.string().nullable(),
  /** Where buyers write for help (payments' SUPPORT_EMAIL), e.g. when no refund is offered. */
  supportEmail: z.string(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/**
 * Sandbox card form → emulator, as Stripe.js does it (form-encoded or JSON, both accepted):
 * - `GET  {apiBase}/v1/payment_intents/{id}?client_secret=…&key={publishableKey}` → the intent
 *   (no metadata, as with a publishable key).
 * - `POST {apiBase}/v1/payment_intents/{id}/confirm` with `client_secret`, `key`, and either
 *   `payment_method` (`pm_card_visa`, `pm_card_chargeDeclined`, …) or `payment_method_data[type]=card`
 *   with `payment_method_data[card][number|exp_month|exp_year|cvc]`; optional `return_url`.
 *   200 → the intent with `status: 'succeeded'`; a declined card → 402 with Stripe's error body
 *   (`sandboxStripeErrorSchema`), e.g. code `card_declined`, decline_code `insufficient_funds`.
 * After either, the browser goes to `/success?payment_intent={id}&plan={planType}` (what Stripe's
 * return_url redirect adds), and /success calls confirm-esim-purchase-by-intent.
 */
export const sandboxConfirmRequestSchema = z.object({
  client_secret: text(),
  key: text().optional(),
  payment_method: text().optional(),
  payment_method_data: z
    .object({
      type: z.literal('card'),
      card: z.object({ number: text(), exp_month: z.coerce.number().int(), exp_year: z.coerce.number().int(), cvc: text().optional() }),
    })
    .optional(),
  return_url: text().optional(),
});
export type SandboxConfirmRequest = z.infer<typeof sandboxConfirmRequestSchema>;

/** Stripe's error body (the emulator answers exactly this shape). */
export const sandboxStripeErrorSchema = z.object({
  error: z.object({
    type: z.string(),
    code: z.string().optional(),
    decline_code: z.string().optional(),
    message: z.string(),
    param: z.string().optional(),
    payment_intent: z.unknown().optional(),
  }),
});
export type SandboxStripeError = z.infer<typeof sandboxStripeErrorSchema>;

/** `POST /api/esim-purchases/:id/refund`: the purchase refunded (or its refund under way), once however often asked. */
export const purchaseRefundSchema = z.object({
  purchaseId: z.string().uuid(),
  status: z.enum(['refunded', 'refund_pending']),
  amount: z.number().int(),
  currency: z.enum(PRICE_CURRENCIES),
  refundedAt: z.string().nullable(),
});
export type PurchaseRefund = z.infer<typeof purchaseRefundSchema>;
export const purchaseRefundRequestSchema = z.object({ purchaseId: z.string().uuid({ error: 'Unknown purchase' }) });

/** Card purchases of prepaid eSIM plans (docs/payments.md). */
export const PurchaseRoutes = {
  createPayment: defineRoute({
    method: 'POST',
    path: '/api/create-esim-payment',
    reasons: ['pix_requires_brl', 'payment_provider_unavailable', 'payment_provider_paused', 'too_many_attempts'],
    tag: 'Purchases',
    auth: 'session',
    summary: "Create the card or Pix payment of a prepaid plan (the catalogue's price, in reais for BR and US dollars elsewhere)",
    body: createEsimPaymentRequestSchema,
    response: createEsimPaymentResponseSchema,
    errors: {
      400: 'Pix asked for a country whose price is not in reais (`reason: pix_requires_brl`).',
      429: 'Too many payments started by this account or from this client network: try again after Retry-After.',
      502: 'Stripe could not be reached.',
    },
  }),
  confirmPurchase: defineRoute({
    method: 'POST',
    path: '/api/confirm-esim-purchase-by-intent',
    reasons: ['payment_not_yours', 'payment_not_found', 'payment_not_succeeded', 'payment_mismatch', 'payment_provider_unavailable'],
    tag: 'Purchases',
    auth: 'session',
    summary: 'After the card payment: the eSIM, or where it stands',
    body: confirmEsimPurchaseRequestSchema,
    response: purchaseConfirmationSchema,
    errors: {
      403: "Someone else's payment (`reason: payment_not_yours`).",
      404: 'Unknown payment (`reason: payment_not_found`).',
      409: 'The payment has not succeeded (`reason: payment_not_succeeded`).',
      502: 'Stripe could not be reached.',
    },
  }),
  listPurchases: defineRoute({
    method: 'GET',
    path: '/api/esim-purchases',
    tag: 'Purchases',
    auth: 'session',
    summary: "The user's paid purchases, newest first",
    response: z.array(esimPurchaseSchema),
  }),
  requestRefund: defineRoute({
    method: 'POST',
    path: '/api/esim-purchases/{id}/refund',
    reasons: ['payment_not_found', 'refund_not_allowed', 'payment_provider_unavailable', 'too_many_attempts'],
    tag: 'Purchases',
    auth: 'session',
    params: z.object({ id: z.string().uuid() }),
    summary: 'Refund a purchase whose eSIM was never installed nor used, within the refund window',
    description:
      'Cancels the line at the provider, refunds the payment through Stripe (card or Pix) and marks the purchase refunded, once however often it is asked, from however many devices.',
    response: purchaseRefundSchema,
    errors: {
      404: 'Not a purchase of this user (`reason: payment_not_found`).',
      409: 'No refund is offered (`reason: refund_not_allowed`, `details.why`).',
      429: 'Too many attempts.',
      502: 'Stripe could not be reached; nothing was refunded.',
    },
  }),
  paymentConfig: defineRoute({
    method: 'GET',
    path: '/api/payment-config',
    tag: 'Purchases',
    auth: 'session',
    summary: 'Where the card form talks to: Stripe (live) or the local emulator (sandbox)',
    response: paymentConfigSchema,
  }),
};
