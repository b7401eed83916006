import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { DataSource, EntityManager } from 'typeorm';
import { SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';
import { asList, nestParams, Params, readBoolean, readInt, readMetadata, readString, refuseUnknown } from './form-params';
import { SandboxIdempotencyKeyEntity } from './sandbox-idempotency-key.entity';
import { SandboxStripeObjectEntity } from './sandbox-stripe-object.entity';
import { SandboxWebhookSender } from './sandbox-webhook-sender.service';
import { StripeEmulatorError } from './stripe-emulator-error';
import { newCardPaymentMethod, newEvent, newPaymentIntent, newPixPaymentMethod, newRefund, publishableView, stripeId, unixNow } from './stripe-shapes';
import { pixCode } from './pix-code';
import { brandOf, CardOutcome, LIVE_CARD_IN_TEST_MODE, luhnValid, TEST_CARDS, TEST_PAYMENT_METHODS } from './test-cards';

export type ApiKeyKind = 'secret' | 'publishable';

export interface EmulatorRequest {
  method: string;
  /** From `/v1/…` on. */
  path: string;
  /** Query and body parameters; bracketed form keys may still be flat. */
  params: Params;
  authorization: string | null;
  idempotencyKey: string | null;
  /** `api`: the secret-key API (/v1, the SDK); `browser`: the publishable-key calls, proxied from the public edge (/sandbox/stripe/v1). */
  via: 'api' | 'browser';
}

export interface EmulatorAnswer {
  httpStatus: number;
  body: unknown;
  headers: Record<string, string>;
}

interface Call {
  params: Params;
  key: ApiKeyKind;
  idempotencyKey: string | null;
  /** Events to deliver once the call's transaction has committed. */
  events: Stripe.Event[];
}

interface Route {
  method: string;
  pattern: RegExp;
  /** Publishable keys may make this call (what Stripe.js does in a browser). */
  publishable: boolean;
  run: (call: Call, id: string) => Promise<unknown>;
}

const CREATE_PARAMS = [
  'amount', 'currency', 'metadata', 'automatic_payment_methods', 'payment_method_types', 'description', 'receipt_email',
  'payment_method', 'confirm', 'return_url', 'capture_method', 'statement_descriptor', 'statement_descriptor_suffix', 'expand',
  'payment_method_options',
];
/** The payment method types the emulator charges; Pix settles reais only, as at Stripe. */
const PAYMENT_METHOD_TYPES = ['card', 'pix'] as const;
const PIX_CURRENCY = 'brl';
/** Stripe's default and bounds of payment_method_options[pix][expires_after_seconds]. */
const PIX_DEFAULT_EXPIRES_AFTER_SECONDS = 86_400;
const PIX_EXPIRES_AFTER_BOUNDS = { min: 10, max: 1_209_600 };
const CONFIRM_PARAMS = ['client_secret', 'payment_method', 'payment_method_data', 'return_url', 'expand', 'receipt_email', 'use_stripe_sdk'];
const REFUND_PARAMS = ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand'];
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
/** A saved answer whose first request never finished (a crash) stops blocking its key after this. */
const ABANDONED_KEY_MS = 60_000;

/**
 * The local Stripe: the subset of the API this product uses, with Stripe's shapes, statuses and
 * error bodies, its test cards and test PaymentMethods, idempotency keys, and signed webhooks.
 * State lives in Postgres (the schema sandbox_stripe), so it survives a restart (docs/payments.md).
 */
@Injectable()
export class StripeEmulatorService {
  private readonly log = new Logger('StripeSandbox');
  private readonly routes: Route[] = [
    { method: 'POST', pattern: /^\/v1\/payment_intents$/, publishable: false, run: (c) => this.createPaymentIntent(c) },
    { method: 'GET', pattern: /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/, publishable: true, run: (c, id) => this.retrievePaymentIntent(c, id) },
    { method: 'POST', pattern: /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/confirm$/, publishable: true, run: (c, id) => this.confirmPaymentIntent(c, id) },
    { method: 'POST', pattern: /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/cancel$/, publishable: false, run: (c, id) => this.cancelPaymentIntent(c, id) },
    { method: 'GET', pattern: /^\/v1\/payment_methods\/([A-Za-z0-9_]+)$/, publishable: false, run: (_c, id) => this.retrieve('payment_method', id) },
    { method: 'POST', pattern: /^\/v1\/refunds$/, publishable: false, run: (c) => this.createRefund(c) },
    { method: 'GET', pattern: /^\/v1\/refunds\/([A-Za-z0-9_]+)$/, publishable: false, run: (_c, id) => this.retrieve('refund', id) },
    { method: 'GET', pattern: /^\/v1\/events\/([A-Za-z0-9_]+)$/, publishable: false, run: (_c, id) => this.retrieve('event', id) },
    { method: 'GET', pattern: /^\/v1\/events$/, publishable: false, run: (c) => this.listEvents(c) },
  ];

  constructor(
    private readonly db: DataSource,
    private readonly webhooks: SandboxWebhookSender,
    @Inject(STRIPE_SETTINGS) private readonly settings: StripeSettings,
  ) {}

  async handle(req: EmulatorRequest): Promise<EmulatorAnswer> {
    const headers = { 'request-id': stripeId('req', 14), 'stripe-version': '2025-10-29.clover' };
    try {
      const params = nestParams(req.params);
      const key = this.authenticate(req, params);
      delete params.key;
      const found = this.route(req.method, req.path);
      if (!found.route.publishable && key === 'publishable')
        throw StripeEmulatorError.authentication('This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.');
      const call: Call = { params, key, idempotencyKey: req.idempotencyKey, events: [] };
      const run = () => found.route.run(call, found.id);
      const answer = req.method === 'POST' && req.idempotencyKey ? await this.idempotent(req, key, params, run) : await this.answer(run);
      for (const event of call.events) this.webhooks.deliver(event);
      return { ...answer, headers: { ...headers, ...answer.headers } };
    } catch (err) {
      return { ...this.failure(err), headers };
    }
  }

  private async answer(run: () => Promise<unknown>): Promise<Omit<EmulatorAnswer, 'headers'> & { headers: Record<string, string> }> {
    try {
      return { httpStatus: 200, body: await run(), headers: {} };
    } catch (err) {
      return { ...this.failure(err), headers: {} };
    }
  }

  private failure(err: unknown): { httpStatus: number; body: unknown } {
    if (err instanceof StripeEmulatorError) return { httpStatus: err.httpStatus, body: { error: err.body } };
    this.log.error(`emulator failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { httpStatus: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred in the Stripe sandbox.' } } };
  }

  /** Bearer (or Basic) secret key from the SDK; `key` parameter or Bearer publishable key from a browser. */
  private authenticate(req: EmulatorRequest, params: Params): ApiKeyKind {
    const header = req.authorization ?? '';
    let key = header.match(/^Bearer\s+(\S+)$/i)?.[1];
    const basic = header.match(/^Basic\s+(\S+)$/i)?.[1];
    if (!key && basic) key = Buffer.from(basic, 'base64').toString('utf8').split(':')[0];
    if (!key && typeof params.key === 'string') key = params.key;
    if (!key)
      throw StripeEmulatorError.authentication(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    if (req.via === 'api' && key === this.settings.secretKey) return 'secret';
    if (key === this.settings.publishableKey) return 'publishable';
    const shown = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 24))}${key.slice(-4)}` : '****';
    throw StripeEmulatorError.authentication(`Invalid API Key provided: ${shown}`);
  }

  private route(method: string, path: string): { route: Route; id: string } {
    for (const route of this.routes) {
      const match = path.match(route.pattern);
      if (match && route.method === method) return { route, id: match[1] ?? '' };
    }
    throw StripeEmulatorError.invalid(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      { status: 404 },
    );
  }

  /**
   * Stripe's idempotency: the first request with a key runs and its answer is saved; the same key
   * with the same parameters answers the saved result (`Idempotent-Replayed: true`); with other
   * parameters it is an idempotency_error. A request refused before it ran (bad parameters, not
   * found) saves nothing, so the key can be used again.
   */
  private async idempotent(req: EmulatorRequest, key: ApiKeyKind, params: Params, run: () => Promise<unknown>) {
    const scoped = `${key}:${req.idempotencyKey}`;
    const fingerprint = createHash('sha256').update(JSON.stringify([req.method, req.path, canonical(params)])).digest('hex');
    const repo = this.db.getRepository(SandboxIdempotencyKeyEntity);
    await this.db.query(`DELETE FROM sandbox_stripe_idempotency_keys WHERE key = $1 AND http_status IS NULL AND created_at < now() - make_interval(secs => $2)`, [
      scoped,
      ABANDONED_KEY_MS / 1000,
    ]);
    const claimed: unknown[] = await this.db.query(
      `INSERT INTO sandbox_stripe_idempotency_keys (key, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`,
      [scoped, fingerprint],
    );
    if (claimed.length === 0) {
      const saved = await repo.findOneBy({ key: scoped });
      if (saved && saved.fingerprint !== fingerprint) {
        throw new StripeEmulatorError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${req.idempotencyKey}' if you meant to execute a different request.`,
        });
      }
      if (!saved || saved.httpStatus === null) {
        throw new StripeEmulatorError(409, {
          type: 'idempotency_error',
          message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${req.idempotencyKey}. Please try again later.`,
        });
      }
      return { httpStatus: saved.httpStatus, body: saved.body, headers: { 'idempotent-replayed': 'true' } };
    }
    const answer = await this.answer(run);
    if (answer.httpStatus === 200 || answer.httpStatus === 402) {
      await repo.update({ key: scoped }, { httpStatus: answer.httpStatus, body: answer.body as object });
    } else {
      await repo.delete({ key: scoped });
    }
    return answer;
  }

  // ---- PaymentIntents ----

  private async createPaymentIntent(call: Call): Promise<unknown> {
    const p = call.params;
    refuseUnknown(p, CREATE_PARAMS);
    const amount = readInt(p, 'amount', { required: true })!;
    const currency = readString(p, 'currency', { required: true })!.toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw StripeEmulatorError.invalid(`Invalid currency: ${currency}.`, { code: 'parameter_invalid_string', param: 'currency' });
    if (amount < 50) throw StripeEmulatorError.invalid(`Amount must be at least $0.50 ${currency}`, { code: 'amount_too_small', param: 'amount' });
    if (amount > 99_999_999) throw StripeEmulatorError.invalid(`Amount must be no more than $999,999.99`, { code: 'amount_too_large', param: 'amount' });
    const apm = p.automatic_payment_methods as Params | undefined;
    const automatic = apm === undefined ? false : readBoolean(apm, 'enabled') === true;
    const types = asList(p.payment_method_types)?.map(String);
    if (automatic && types) {
      throw StripeEmulatorError.invalid('You may only specify one of these parameters: automatic_payment_methods, payment_method_types.', {
        param: 'automatic_payment_methods',
      });
    }
    const unknownType = types?.find((t) => !(PAYMENT_METHOD_TYPES as readonly string[]).includes(t));
    if (unknownType) throw StripeEmulatorError.invalid(`The sandbox only emulates ${PAYMENT_METHOD_TYPES.join(' and ')} payments (not ${unknownType}).`, { param: 'payment_method_types' });
    if (types?.includes('pix') && currency !== PIX_CURRENCY) {
      throw StripeEmulatorError.invalid(
        `The currency provided (${currency}) is invalid for one or more payment method types on this PaymentIntent. The payment method type pix only supports the following currencies: ${PIX_CURRENCY}.`,
        { code: 'payment_intent_invalid_currency', param: 'currency' },
      );
    }
    const pixOptions = ((p.payment_method_options as Params | undefined)?.pix ?? {}) as Params;
    const pixExpiresAfter = readInt(pixOptions, 'expires_after_seconds') ?? PIX_DEFAULT_EXPIRES_AFTER_SECONDS;
    if (pixExpiresAfter < PIX_EXPIRES_AFTER_BOUNDS.min || pixExpiresAfter > PIX_EXPIRES_AFTER_BOUNDS.max) {
      throw StripeEmulatorError.invalid(`expires_after_seconds must be between ${PIX_EXPIRES_AFTER_BOUNDS.min} and ${PIX_EXPIRES_AFTER_BOUNDS.max}.`, {
        param: 'payment_method_options[pix][expires_after_seconds]',
      });
    }
    const capture = readString(p, 'capture_method');
    if (capture !== undefined && capture !== 'automatic' && capture !== 'automatic_async')
      throw StripeEmulatorError.invalid('The sandbox only emulates automatic capture.', { param: 'capture_method' });

    const pi = newPaymentIntent({
      amount,
      currency,
      metadata: readMetadata(p) ?? {},
      automaticPaymentMethods: automatic || !types,
      paymentMethodTypes: types ?? ['card'],
      pixExpiresAfterSeconds: types?.includes('pix') ? pixExpiresAfter : null,
      description: readString(p, 'description', { max: 1000 }) ?? null,
      receiptEmail: readString(p, 'receipt_email', { max: 800 }) ?? null,
      statementDescriptor: readString(p, 'statement_descriptor', { max: 22 }) ?? null,
      statementDescriptorSuffix: readString(p, 'statement_descriptor_suffix', { max: 22 }) ?? null,
    });
    if (capture) pi.capture_method = capture;
    const confirmed = await this.db.transaction(async (m) => {
      await this.save(m, pi);
      this.log.log(`SANDBOX PaymentIntent ${pi.id} created: ${pi.amount} ${pi.currency}`);
      return readBoolean(p, 'confirm') ? this.confirm(m, call, pi, { payment_method: p.payment_method }) : { pi, declined: null };
    });
    if (confirmed.declined) throw confirmed.declined;
    return confirmed.pi;
  }

  private async retrievePaymentIntent(call: Call, id: string): Promise<unknown> {
    const pi = await this.find<Stripe.PaymentIntent>(this.db.manager, 'payment_intent', id, 'intent');
    if (call.key === 'publishable') {
      this.checkClientSecret(call.params, pi);
      return publishableView(pi);
    }
    return pi;
  }

  private async confirmPaymentIntent(call: Call, id: string): Promise<unknown> {
    // Stripe.js adds bookkeeping parameters of its own; only the secret-key API is strict.
    if (call.key === 'secret') refuseUnknown(call.params, CONFIRM_PARAMS);
    const confirmed = await this.db.transaction(async (m) => {
      const pi = await this.find<Stripe.PaymentIntent>(m, 'payment_intent', id, 'intent', { lock: true });
      if (call.key === 'publishable') this.checkClientSecret(call.params, pi);
      return this.confirm(m, call, pi, call.params);
    });
    // A decline is committed (the intent records it, the webhook goes out) before it is answered.
    if (confirmed.declined) throw confirmed.declined;
    return this.view(call, confirmed.pi);
  }

  private async cancelPaymentIntent(call: Call, id: string): Promise<unknown> {
    refuseUnknown(call.params, ['cancellation_reason', 'expand']);
    return this.db.transaction(async (m) => {
      const pi = await this.find<Stripe.PaymentIntent>(m, 'payment_intent', id, 'intent', { lock: true });
      if (pi.status === 'succeeded' || pi.status === 'canceled') {
        throw StripeEmulatorError.invalid(`You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`, {
          code: 'payment_intent_unexpected_state',
        });
      }
      pi.status = 'canceled';
      pi.canceled_at = Math.floor(Date.now() / 1000);
      pi.cancellation_reason = (readString(call.params, 'cancellation_reason') as Stripe.PaymentIntent.CancellationReason | undefined) ?? null;
      await this.save(m, pi);
      call.events.push(await this.event(m, 'payment_intent.canceled', pi, call));
      return pi;
    });
  }

  /**
   * Charges the card: succeeded and `payment_intent.succeeded`, or declined and
   * `payment_intent.payment_failed` (the 402 to answer is returned, not thrown, so that the
   * decline commits with the intent).
   */
  private async confirm(m: EntityManager, call: Call, pi: Stripe.PaymentIntent, p: Params): Promise<{ pi: Stripe.PaymentIntent; declined: StripeEmulatorError | null }> {
    const data = p.payment_method_data as Params | undefined;
    // A Pix code waiting to be paid can be replaced by confirming again (a new code, a new expiry).
    const replacingPix = pi.status === 'requires_action' && pi.next_action?.type === 'pix_display_qr_code';
    if (pi.status !== 'requires_payment_method' && pi.status !== 'requires_confirmation' && !replacingPix) {
      const message =
        pi.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`;
      throw new StripeEmulatorError(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message, payment_intent: this.view(call, pi) });
    }
    if (data?.type === 'pix') return { pi: await this.confirmPix(m, call, pi, p), declined: null };
    if (replacingPix) {
      throw new StripeEmulatorError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'You cannot confirm this PaymentIntent because it has a status of requires_action.',
        payment_intent: this.view(call, pi),
      });
    }
    const { method, outcome } = await this.paymentMethod(m, call, pi, p);
    pi.payment_method = method.id;
    const returnUrl = readString(p, 'return_url');
    if (returnUrl !== undefined && !/^https?:\/\//.test(returnUrl)) throw StripeEmulatorError.invalid('Not a valid URL', { code: 'url_invalid', param: 'return_url' });

    const charge = stripeId('ch');
    if (outcome.decline) {
      const error: Stripe.PaymentIntent.LastPaymentError = {
        type: 'card_error',
        code: outcome.decline.code as Stripe.PaymentIntent.LastPaymentError.Code,
        decline_code: outcome.decline.declineCode,
        message: outcome.decline.message,
        charge,
        doc_url: `https://stripe.com/docs/error-codes/${outcome.decline.code.replaceAll('_', '-')}`,
        payment_method: method,
      };
      pi.status = 'requires_payment_method';
      pi.payment_method = null;
      pi.last_payment_error = error;
      pi.latest_charge = charge;
      await this.save(m, pi);
      call.events.push(await this.event(m, 'payment_intent.payment_failed', pi, call));
      this.log.warn(`SANDBOX PaymentIntent ${pi.id} declined: ${outcome.decline.declineCode ?? outcome.decline.code}`);
      return { pi, declined: new StripeEmulatorError(402, { ...(error as StripeErrorFields), payment_intent: this.view(call, pi) }) };
    }
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    pi.latest_charge = charge;
    await this.save(m, pi);
    call.events.push(await this.event(m, 'payment_intent.succeeded', pi, call));
    this.log.log(`SANDBOX PaymentIntent ${pi.id} succeeded: ${pi.amount} ${pi.currency} charged to ${method.card?.brand} ****${method.card?.last4}`);
    return { pi, declined: null };
  }

  /** The card to charge: a test PaymentMethod id, one made earlier, or card details sent now. */
  private async paymentMethod(m: EntityManager, call: Call, pi: Stripe.PaymentIntent, p: Params): Promise<{ method: Stripe.PaymentMethod; outcome: CardOutcome }> {
    const data = p.payment_method_data as Params | undefined;
    const id = readString(p, 'payment_method') ?? (typeof pi.payment_method === 'string' ? pi.payment_method : undefined);
    let card: { number: string; expMonth: number; expYear: number };
    if (data !== undefined) {
      if (data.type !== 'card') throw StripeEmulatorError.invalid(`The sandbox only emulates ${PAYMENT_METHOD_TYPES.join(' and ')} payments.`, { param: 'payment_method_data[type]' });
      if (!pi.payment_method_types.includes('card'))
        throw StripeEmulatorError.invalid(`The PaymentIntent ${pi.id} does not accept card payments (payment_method_types: ${pi.payment_method_types.join(', ')}).`, { param: 'payment_method_data[type]' });
      card = this.readCard(call, pi, (data.card ?? {}) as Params);
    } else if (id && TEST_PAYMENT_METHODS[id]) {
      card = TEST_PAYMENT_METHODS[id];
    } else if (id) {
      const saved = await m.getRepository(SandboxStripeObjectEntity).findOneBy({ id, object: 'payment_method' });
      if (!saved) throw StripeEmulatorError.missing('PaymentMethod', id, 'payment_method');
      const pm = saved.data as unknown as Stripe.PaymentMethod;
      return { method: pm, outcome: TEST_CARDS[String(pm.metadata?.sandbox_number)] ?? { brand: 'visa', funding: 'credit', decline: null } };
    } else {
      throw new StripeEmulatorError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: "You cannot confirm this PaymentIntent because it's missing a payment method. Provide a payment_method or payment_method_data.",
        param: 'payment_method',
        payment_intent: this.view(call, pi),
      });
    }
    const outcome = TEST_CARDS[card.number] ?? { brand: brandOf(card.number), funding: 'credit' as const, decline: LIVE_CARD_IN_TEST_MODE };
    const method = newCardPaymentMethod({ ...card, brand: outcome.brand, funding: outcome.funding });
    // The number itself is never stored; which test card it was is (to replay its behaviour).
    method.metadata = { sandbox_number: TEST_CARDS[card.number] ? card.number : 'other' };
    await this.save(m, method);
    method.metadata = {};
    return { method, outcome };
  }

  /** Card details as Stripe validates them before charging: number (Luhn), expiry, CVC. */
  private readCard(call: Call, pi: Stripe.PaymentIntent, c: Params): { number: string; expMonth: number; expYear: number } {
    const cardError = (code: string, message: string, param: string) =>
      new StripeEmulatorError(402, { type: 'card_error', code, message, param: `payment_method_data[card][${param}]`, payment_intent: this.view(call, pi) });
    const number = String(c.number ?? '').replace(/[\s-]/g, '');
    if (!number) throw StripeEmulatorError.invalid('Missing required param: payment_method_data[card][number].', { code: 'parameter_missing', param: 'payment_method_data[card][number]' });
    if (!luhnValid(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', 'number');
    const expMonth = Number(c.exp_month);
    let expYear = Number(c.exp_year);
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
    if (!Number.isInteger(expYear)) throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year');
    if (expYear < 100) expYear += 2000;
    const now = new Date();
    if (expYear < now.getUTCFullYear() || expYear > now.getUTCFullYear() + 50) throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year');
    if (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
    if (c.cvc !== undefined && !/^\d{3,4}$/.test(String(c.cvc))) throw cardError('invalid_cvc', "Your card's security code is invalid.", 'cvc');
    return { number, expMonth, expYear };
  }

  /**
   * Pix, as Stripe's test mode does it: confirming answers `requires_action` with
   * `next_action.pix_display_qr_code` (the copy-and-paste code, its QR image, its expiry and the
   * hosted instructions page); the payment lands later, asynchronously. Here "later" is the
   * sandbox control (settlePix): the buyer's bank app is not emulated.
   */
  private async confirmPix(m: EntityManager, call: Call, pi: Stripe.PaymentIntent, p: Params): Promise<Stripe.PaymentIntent> {
    if (!pi.payment_method_types.includes('pix'))
      throw StripeEmulatorError.invalid(`The PaymentIntent ${pi.id} does not accept Pix (payment_method_types: ${pi.payment_method_types.join(', ')}).`, { param: 'payment_method_data[type]' });
    const returnUrl = readString(p, 'return_url');
    if (returnUrl !== undefined && !/^https?:\/\//.test(returnUrl)) throw StripeEmulatorError.invalid('Not a valid URL', { code: 'url_invalid', param: 'return_url' });
    const method = newPixPaymentMethod();
    await this.save(m, method);
    const expiresAfter = pi.payment_method_options?.pix?.expires_after_seconds ?? PIX_DEFAULT_EXPIRES_AFTER_SECONDS;
    const expiresAt = unixNow() + expiresAfter;
    const page = new URL(`${SANDBOX_STRIPE_BASE_PATH}/pix/${pi.id}`, this.settings.publicUrl);
    page.searchParams.set('client_secret', pi.client_secret ?? '');
    pi.payment_method = method.id;
    pi.status = 'requires_action';
    pi.last_payment_error = null;
    pi.next_action = {
      type: 'pix_display_qr_code',
      pix_display_qr_code: {
        data: pixCode({ amountMinor: pi.amount, chargeUrl: `${page.host}/pix/${method.id}`, txid: method.id }),
        expires_at: expiresAt,
        hosted_instructions_url: page.toString(),
        image_url_png: new URL(`${SANDBOX_STRIPE_BASE_PATH}/pix/${pi.id}/qr.png?client_secret=${encodeURIComponent(pi.client_secret ?? '')}`, this.settings.publicUrl).toString(),
        image_url_svg: new URL(`${SANDBOX_STRIPE_BASE_PATH}/pix/${pi.id}/qr.svg?client_secret=${encodeURIComponent(pi.client_secret ?? '')}`, this.settings.publicUrl).toString(),
      },
    } as Stripe.PaymentIntent.NextAction;
    await this.save(m, pi);
    call.events.push(await this.event(m, 'payment_intent.requires_action', pi, call));
    this.log.log(`SANDBOX PaymentIntent ${pi.id}: Pix code issued for ${pi.amount} ${pi.currency}, expires ${new Date(expiresAt * 1000).toISOString()}`);
    return pi;
  }

  /**
   * The sandbox's stand-in for the buyer's bank (the hosted instructions page's buttons, tests):
   * `pay` settles the Pix code now (succeeded, `payment_intent.succeeded`); `expire` lets it lapse
   * as Stripe does when nobody pays in time (back to `requires_payment_method` with
   * `payment_intent_payment_attempt_expired`, `payment_intent.payment_failed`). A code past its
   * `expires_at` cannot be paid: paying it expires it. Needs the intent's client secret.
   */
  async settlePix(id: string, clientSecret: unknown, outcome: 'pay' | 'expire'): Promise<EmulatorAnswer> {
    const headers = { 'request-id': stripeId('req', 14) };
    const call: Call = { params: { client_secret: clientSecret as string }, key: 'publishable', idempotencyKey: null, events: [] };
    try {
      const result = await this.db.transaction(async (m) => {
        const pi = await this.find<Stripe.PaymentIntent>(m, 'payment_intent', id, 'intent', { lock: true });
        this.checkClientSecret(call.params, pi);
        const code = pi.next_action?.type === 'pix_display_qr_code' ? pi.next_action.pix_display_qr_code : undefined;
        if (pi.status !== 'requires_action' || !code) {
          throw StripeEmulatorError.invalid(`This PaymentIntent has no Pix code waiting to be paid (status ${pi.status}).`, { code: 'payment_intent_unexpected_state' });
        }
        const lapsed = (code.expires_at ?? 0) <= unixNow();
        if (outcome === 'expire' || lapsed) {
          pi.status = 'requires_payment_method';
          pi.next_action = null;
          pi.payment_method = null;
          pi.last_payment_error = {
            type: 'invalid_request_error',
            code: 'payment_intent_payment_attempt_expired',
            message: 'The latest payment attempt of this PaymentIntent has expired. Provide a new payment method to attempt to fulfill this PaymentIntent again.',
            doc_url: 'https://stripe.com/docs/error-codes/payment-intent-payment-attempt-expired',
          } as Stripe.PaymentIntent.LastPaymentError;
          await this.save(m, pi);
          call.events.push(await this.event(m, 'payment_intent.payment_failed', pi, call));
          this.log.warn(`SANDBOX PaymentIntent ${pi.id}: Pix code expired unpaid`);
          return { pi, refused: outcome === 'pay' ? StripeEmulatorError.invalid('This Pix code has expired and can no longer be paid.', { code: 'payment_intent_payment_attempt_expired' }) : null };
        }
        pi.status = 'succeeded';
        pi.next_action = null;
        pi.amount_received = pi.amount;
        pi.last_payment_error = null;
        pi.latest_charge = stripeId('py');
        await this.save(m, pi);
        call.events.push(await this.event(m, 'payment_intent.succeeded', pi, call));
        this.log.log(`SANDBOX PaymentIntent ${pi.id} succeeded: ${pi.amount} ${pi.currency} paid by Pix`);
        return { pi, refused: null };
      });
      for (const event of call.events) this.webhooks.deliver(event);
      if (result.refused) throw result.refused;
      return { httpStatus: 200, body: publishableView(result.pi), headers };
    } catch (err) {
      return { ...this.failure(err), headers };
    }
  }

  /** A Pix code's copy-and-paste data, for its QR image; null when the intent shows none (or the secret is wrong). */
  async pixData(id: string, clientSecret: unknown): Promise<{ intent: Partial<Stripe.PaymentIntent>; data: string | null } | null> {
    const row = await this.db.getRepository(SandboxStripeObjectEntity).findOneBy({ id, object: 'payment_intent' });
    const pi = row?.data as Stripe.PaymentIntent | undefined;
    if (!pi || typeof clientSecret !== 'string' || clientSecret !== pi.client_secret) return null;
    const data = pi.next_action?.type === 'pix_display_qr_code' ? (pi.next_action.pix_display_qr_code?.data ?? null) : null;
    return { intent: publishableView(pi), data };
  }

  private checkClientSecret(params: Params, pi: Stripe.PaymentIntent): void {
    const secret = readString(params, 'client_secret', { required: true });
    if (secret !== pi.client_secret) {
      throw StripeEmulatorError.invalid(
        'The client_secret provided does not match the client_secret associated with the PaymentIntent.',
        { code: 'payment_intent_invalid_parameter', param: 'client_secret' },
      );
    }
  }

  // ---- Refunds ----

  private async createRefund(call: Call): Promise<unknown> {
    const p = call.params;
    refuseUnknown(p, REFUND_PARAMS);
    const reason = readString(p, 'reason') as Stripe.Refund.Reason | undefined;
    if (reason !== undefined && !(REFUND_REASONS as readonly string[]).includes(reason))
      throw StripeEmulatorError.invalid(`Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`, { param: 'reason' });
    const metadata = readMetadata(p) ?? {};
    return this.db.transaction(async (m) => {
      const pi = await this.refundTarget(m, p);
      const charge = typeof pi.latest_charge === 'string' ? pi.latest_charge : null;
      if (pi.status !== 'succeeded' || !charge) {
        throw StripeEmulatorError.invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, { code: 'charge_not_refundable', param: 'payment_intent' });
      }
      const [{ refunded }] = await m.query(
        `SELECT COALESCE(SUM((data->>'amount')::int), 0)::int AS refunded FROM sandbox_stripe_objects WHERE object = 'refund' AND data->>'payment_intent' = $1`,
        [pi.id],
      );
      const remaining = pi.amount_received - refunded;
      if (remaining <= 0) throw StripeEmulatorError.invalid(`Charge ${charge} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = readInt(p, 'amount') ?? remaining;
      if (amount <= 0) throw StripeEmulatorError.invalid('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
      if (amount > remaining) {
        throw StripeEmulatorError.invalid(
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`,
          { code: 'amount_too_large', param: 'amount' },
        );
      }
      const refund = newRefund({ amount, currency: pi.currency, charge, paymentIntent: pi.id, reason: reason ?? null, metadata });
      await this.save(m, refund);
      call.events.push(await this.event(m, 'refund.created', refund, call));
      this.log.log(`SANDBOX refund ${refund.id}: ${amount} ${pi.currency} of ${pi.id}`);
      return refund;
    });
  }

  private async refundTarget(m: EntityManager, p: Params): Promise<Stripe.PaymentIntent> {
    const intent = readString(p, 'payment_intent');
    if (intent) return this.find<Stripe.PaymentIntent>(m, 'payment_intent', intent, 'payment_intent', { lock: true });
    const charge = readString(p, 'charge');
    if (!charge) throw StripeEmulatorError.invalid('One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing' });
    const rows: Array<{ id: string }> = await m.query(`SELECT id FROM sandbox_stripe_objects WHERE object = 'payment_intent' AND data->>'latest_charge' = $1`, [charge]);
    if (rows.length === 0) throw StripeEmulatorError.missing('charge', charge, 'charge');
    return this.find<Stripe.PaymentIntent>(m, 'payment_intent', rows[0].id, 'charge', { lock: true });
  }

  // ---- Events ----

  private async listEvents(call: Call): Promise<unknown> {
    const limit = Math.min(readInt(call.params, 'limit') ?? 10, 100);
    const type = readString(call.params, 'type');
    const rows = await this.db
      .getRepository(SandboxStripeObjectEntity)
      .createQueryBuilder('o')
      .where('o.object = :object', { object: 'event' })
      .andWhere(type ? "o.data->>'type' = :type" : 'TRUE', { type })
      .orderBy('o.created_at', 'DESC')
      .limit(limit + 1)
      .getMany();
    return { object: 'list', data: rows.slice(0, limit).map((r) => r.data), has_more: rows.length > limit, url: '/v1/events' };
  }

  private async event(m: EntityManager, type: string, object: Stripe.PaymentIntent | Stripe.Refund, call: Call): Promise<Stripe.Event> {
    const event = newEvent(type, structuredClone(object), call.idempotencyKey);
    await this.save(m, event);
    return event;
  }

  // ---- storage ----

  private async retrieve(object: string, id: string): Promise<unknown> {
    return this.find(this.db.manager, object, id, 'id');
  }

  private async find<T>(m: EntityManager, object: string, id: string, param: string, opts: { lock?: boolean } = {}): Promise<T> {
    const row = await m.getRepository(SandboxStripeObjectEntity).findOne({ where: { id, object }, ...(opts.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!row) throw StripeEmulatorError.missing(object, id, param);
    return row.data as T;
  }

  private async save(m: EntityManager, obj: { id: string; object: string }): Promise<void> {
    await m.getRepository(SandboxStripeObjectEntity).save({ id: obj.id, object: obj.object, data: obj as unknown as Record<string, unknown> });
  }

  private view(call: Call, pi: Stripe.PaymentIntent): unknown {
    return call.key === 'publishable' ? publishableView(pi) : pi;
  }
}

type StripeErrorFields = ConstructorParameters<typeof StripeEmulatorError>[1];

/** Parameters with their keys sorted, so that the same parameters in another order fingerprint alike. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Params)[k])]));
  }
  return value === undefined ? null : String(value);
}
