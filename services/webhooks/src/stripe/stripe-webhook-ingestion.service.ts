import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import Stripe from 'stripe';
import { EventPayload, StripeEventAccepted } from '@esim/contracts';
import { Counter, Metrics, UnitOfWork } from '@esim/platform';
import { WebhookTransaction } from '../postbacks/webhook-transaction.entity';
import { boundedPayload } from '../refused-deliveries/bounded-payload';
import { RefusedDeliveryGate } from '../refused-deliveries/refused-delivery-gate.service';
import { StripeWebhookSettings } from './stripe-webhook-settings';

/** One Stripe delivery exactly as it reached us: the body's bytes are what the signature covers. */
export interface StripeDelivery {
  body: Buffer;
  url: string;
  headers: Record<string, string>;
  sourceIp: string;
}

/** Stripe's answer: the status and JSON body it gets, as payments answered it before. */
export interface StripeAnswer {
  httpStatus: number;
  body: unknown;
}

const PROVIDER = 'stripe';
/** Ours, not Stripe's: never stored. */
const PRIVATE_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REFUSED: StripeAnswer = { httpStatus: 400, body: { error: { message: 'Webhook signature verification failed.' } } };
const RECEIVED: StripeAnswer = { httpStatus: 200, body: { received: true } };
const DUPLICATE: StripeAnswer = { httpStatus: 200, body: { received: true, duplicate: true } };

type AcceptedIntent = NonNullable<EventPayload<typeof StripeEventAccepted>['paymentIntent']>;

/** Postgres text and jsonb cannot hold U+0000. */
const storable = (text: string) => text.replaceAll('\u0000', '\uFFFD');
const text = (v: unknown) => (typeof v === 'string' ? v : null);
const integer = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);

/** The fields of a `payment_intent.*` event's PaymentIntent that payments acts on. */
function intentOf(event: Stripe.Event): AcceptedIntent | null {
  if (!event.type.startsWith('payment_intent.')) return null;
  const pi = event.data.object as Partial<Stripe.PaymentIntent>;
  if (typeof pi?.id !== 'string') return null;
  const metadata = Object.fromEntries(Object.entries(pi.metadata ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const error = pi.last_payment_error;
  return {
    id: pi.id,
    status: text(pi.status) ?? '',
    amount: integer(pi.amount),
    amountReceived: integer(pi.amount_received),
    currency: text(pi.currency) ?? '',
    metadata,
    lastPaymentError: error ? { code: text(error.code), declineCode: text(error.decline_code), message: text(error.message) } : null,
  };
}

/**
 * Stripe's webhook (docs/payments.md, "Webhook"): the signature is checked on the exact bytes
 * received with the SDK's constructEvent (wrong secret, missing header or a timestamp older than
 * STRIPE_WEBHOOK_TOLERANCE_SECONDS: 400, recorded, nothing handed on). A verified event is recorded
 * once per event id in webhook_transactions and announced (StripeEventAccepted, through the outbox)
 * in the same transaction, before Stripe is answered; payments applies it later, exactly once. The
 * same event again is recorded as a `duplicate` delivery and answered so. No answer waits for payments.
 */
@Injectable()
export class StripeWebhookIngestion implements OnApplicationBootstrap {
  private readonly log = new Logger('StripeWebhook');
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: StripeWebhookSettings,
    private readonly refusedDeliveries: RefusedDeliveryGate,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter({
      name: 'stripe_webhook_outcomes_total',
      help: 'Stripe webhook deliveries by outcome (accepted, duplicate, rejected_signature), counted once recorded.',
      labelNames: ['outcome'],
    });
  }

  onApplicationBootstrap(): void {
    if (this.settings.sandbox)
      this.log.warn('SANDBOX: STRIPE_WEBHOOK_SECRET is unset; Stripe deliveries are verified with the Stripe emulator\'s public secret. Not for real payments.');
  }

  async ingest(d: StripeDelivery): Promise<StripeAnswer> {
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(d.body, d.headers['stripe-signature'] ?? '', this.settings.secret, this.settings.toleranceSeconds);
    } catch (err) {
      const reason = (err as Error).message;
      this.outcomes.inc({ outcome: 'rejected_signature' });
      // Over its address's limit, a refusal is answered the same but neither stored nor logged.
      if (!(await this.refusedDeliveries.admit(PROVIDER, 'rejected_signature', d.sourceIp))) return REFUSED;
      this.log.warn(`Stripe webhook from ${d.sourceIp} refused: ${reason.slice(0, 500)}`);
      const row = this.row(d, d.body.toString('utf8'));
      await this.uow.run((tx) =>
        tx.manager.getRepository(WebhookTransaction).insert({
          ...row,
          // Anyone can send a refused delivery: what is kept of it is bounded.
          rawPayload: boundedPayload(row.rawPayload as { method: string; url: string; body: string; headers: Record<string, string> }),
          transactionId: null,
          status: 'rejected_signature',
          error: storable(reason.slice(0, 500)),
        }),
      );
      return REFUSED;
    }

    const intent = intentOf(event);
    const accepted = await this.uow.run(async (tx) => {
      const repo = tx.manager.getRepository(WebhookTransaction);
      const record = { ...this.row(d, d.body.toString('utf8')), transactionId: storable(event.id) };
      const inserted = await repo
        .createQueryBuilder()
        .insert()
        .values({ ...record, action: 'event', status: 'accepted', userId: UUID.test(intent?.metadata.userId ?? '') ? intent!.metadata.userId : null })
        // The partial unique index (provider, transaction_id, action): one accepted delivery per event id.
        .orIgnore()
        .returning('id')
        .execute();
      const deliveryId = (inserted.raw as Array<{ id: string }>)[0]?.id;
      if (!deliveryId) {
        await repo.insert({ ...record, status: 'duplicate' });
        return false;
      }
      tx.publish(StripeEventAccepted, {
        deliveryId,
        eventId: event.id,
        type: event.type,
        paymentIntent: intent,
        acceptedAt: new Date().toISOString(),
      });
      return true;
    });
    this.outcomes.inc({ outcome: accepted ? 'accepted' : 'duplicate' });
    if (!accepted) this.log.log(`Stripe event ${event.id} (${event.type}) delivered again: already accepted`);
    return accepted ? RECEIVED : DUPLICATE;
  }

  /** What every record of a delivery holds: the body as signed, the URL and headers, the source address. */
  private row(d: StripeDelivery, body: string): Partial<WebhookTransaction> {
    const headers = Object.fromEntries(Object.entries(d.headers).filter(([name]) => !PRIVATE_HEADERS.has(name)).map(([k, v]) => [k, storable(v)]));
    return {
      provider: PROVIDER,
      action: null,
      userId: null,
      amountMb: null,
      rawPayload: { method: 'POST', url: storable(d.url), body: storable(body), headers },
      sourceIp: d.sourceIp,
    };
  }
}
