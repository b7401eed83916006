import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { STRIPE_API_VERSION } from '@esim/contracts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Stripe-looking id: prefix, underscore, 24 random letters and digits. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

/** A new PaymentIntent as Stripe returns it to the secret key. */
export function newPaymentIntent(fields: {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  automaticPaymentMethods: boolean;
  paymentMethodTypes: string[];
  /** payment_method_options[pix][expires_after_seconds], when the intent accepts Pix. */
  pixExpiresAfterSeconds: number | null;
  description: string | null;
  receiptEmail: string | null;
  statementDescriptor: string | null;
  statementDescriptorSuffix: string | null;
}): Stripe.PaymentIntent {
  const id = stripeId('pi');
  return {
    id,
    object: 'payment_intent',
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: fields.automaticPaymentMethods ? { allow_redirects: 'always', enabled: true } : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${stripeId('x').slice(2)}`,
    confirmation_method: 'automatic',
    created: unixNow(),
    currency: fields.currency,
    customer: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      ...(fields.paymentMethodTypes.includes('card')
        ? { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' as const } }
        : {}),
      ...(fields.pixExpiresAfterSeconds !== null ? { pix: { expires_after_seconds: fields.pixExpiresAfterSeconds, expires_at: null } } : {}),
    } as Stripe.PaymentIntent.PaymentMethodOptions,
    payment_method_types: fields.paymentMethodTypes,
    processing: null,
    receipt_email: fields.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: fields.statementDescriptor,
    statement_descriptor_suffix: fields.statementDescriptorSuffix,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

/** The fields Stripe shows a publishable key (no metadata, customer or charges). */
const PUBLISHABLE_FIELDS = [
  'id', 'object', 'amount', 'amount_details', 'automatic_payment_methods', 'canceled_at', 'cancellation_reason', 'capture_method',
  'client_secret', 'confirmation_method', 'created', 'currency', 'description', 'excluded_payment_method_types', 'last_payment_error',
  'livemode', 'next_action', 'payment_method', 'payment_method_configuration_details', 'payment_method_types', 'processing',
  'receipt_email', 'setup_future_usage', 'shipping', 'source', 'status',
] as const;

export function publishableView(pi: Stripe.PaymentIntent): Partial<Stripe.PaymentIntent> {
  return Object.fromEntries(PUBLISHABLE_FIELDS.map((f) => [f, pi[f]]));
}

export function newCardPaymentMethod(card: { number: string; expMonth: number; expYear: number; brand: string; funding: string }): Stripe.PaymentMethod {
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: stripeId('fp', 16).slice(3),
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: unixNow(),
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

export function newPixPaymentMethod(): Stripe.PaymentMethod {
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: null, name: null, phone: null, tax_id: null },
    created: unixNow(),
    customer: null,
    livemode: false,
    metadata: {},
    pix: {},
    type: 'pix',
  } as Stripe.PaymentMethod;
}

export function newRefund(fields: { amount: number; currency: string; charge: string | null; paymentIntent: string; reason: Stripe.Refund.Reason | null; metadata: Record<string, string> }): Stripe.Refund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: fields.amount,
    balance_transaction: stripeId('txn'),
    charge: fields.charge,
    created: unixNow(),
    currency: fields.currency,
    destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
    metadata: fields.metadata,
    payment_intent: fields.paymentIntent,
    reason: fields.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function newEvent(type: string, object: Stripe.PaymentIntent | Stripe.Refund, idempotencyKey: string | null): Stripe.Event {
  return {
    id: stripeId('evt'),
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: unixNow(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: stripeId('req', 14), idempotency_key: idempotencyKey },
    type,
  } as Stripe.Event;
}
