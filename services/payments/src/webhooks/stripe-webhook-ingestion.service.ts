import { Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import type { ProviderAnswer } from '@esim/contracts';
import { Tx, UnitOfWork } from '@esim/platform';
import { DataSource } from 'typeorm';
import { EsimPurchasesService } from '../purchases/esim-purchases.service';
import { FulfilmentService } from '../purchases/fulfilment.service';
import { StripeApiService } from '../stripe/stripe-api.service';
import { WebhookTransactionEntity, WebhookTransactionStatus } from './webhook-transaction.entity';

const PROVIDER = 'stripe';
/** A refused delivery is kept for operators, but not its whole body. */
const REFUSED_PAYLOAD_CHARS = 4096;

interface Outcome {
  status: WebhookTransactionStatus;
  error?: string;
  userId?: string;
}

/**
 * Stripe's webhook (docs/payments.md, "Webhook"): the signature is checked on the exact bytes
 * received with the SDK's constructEvent (wrong secret, missing header or a timestamp older than
 * STRIPE_WEBHOOK_TOLERANCE_SECONDS: 400, nothing applied). A verified event is recorded once per
 * event id in webhook_transactions, in the same transaction as its effect: a redelivered event
 * only counts the delivery. `payment_intent.succeeded` fulfils the purchase (the same once-only
 * path as the confirmation call); `payment_intent.payment_failed` records the decline.
 */
@Injectable()
export class StripeWebhookIngestionService {
  private readonly log = new Logger('StripeWebhook');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly api: StripeApiService,
    private readonly purchases: EsimPurchasesService,
    private readonly fulfilment: FulfilmentService,
  ) {}

  async ingest(payload: string, signature: string | null): Promise<ProviderAnswer> {
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(payload, signature ?? '', this.api.settings.webhookSecret, this.api.settings.webhookToleranceSeconds);
    } catch (err) {
      const reason = (err as Error).message;
      this.log.warn(`Stripe webhook refused: ${reason}`);
      await this.db.getRepository(WebhookTransactionEntity).insert({
        provider: PROVIDER,
        transactionId: null,
        status: 'rejected_signature',
        rawPayload: payload.replaceAll('\u0000', '\uFFFD').slice(0, REFUSED_PAYLOAD_CHARS),
        error: reason.slice(0, 500),
        processedAt: new Date(),
        lastDeliveredAt: new Date(),
      });
      return { httpStatus: 400, body: { error: { message: 'Webhook signature verification failed.' } } };
    }

    return this.uow.run(async (tx) => {
      const repo = tx.manager.getRepository(WebhookTransactionEntity);
      const intent = event.type.startsWith('payment_intent.') ? (event.data.object as Stripe.PaymentIntent) : null;
      const inserted = await repo
        .createQueryBuilder()
        .insert()
        .values({
          provider: PROVIDER,
          transactionId: event.id,
          eventType: event.type,
          paymentIntentId: intent?.id ?? null,
          status: 'ignored',
          amountCents: intent?.amount ?? null,
          rawPayload: payload,
          processedAt: new Date(),
          lastDeliveredAt: new Date(),
        })
        .orIgnore()
        .returning('id')
        .execute();
      if ((inserted.raw as unknown[]).length === 0) {
        await repo.increment({ provider: PROVIDER, transactionId: event.id }, 'deliveries', 1);
        await repo.update({ provider: PROVIDER, transactionId: event.id }, { lastDeliveredAt: new Date() });
        this.log.log(`Stripe event ${event.id} (${event.type}) delivered again: already handled`);
        return { httpStatus: 200, body: { received: true, duplicate: true } };
      }
      const outcome = intent ? await this.apply(tx, event.type, intent) : { status: 'ignored' as const };
      await repo.update(
        { provider: PROVIDER, transactionId: event.id },
        { status: outcome.status, error: outcome.error?.slice(0, 500) ?? null, userId: outcome.userId ?? null },
      );
      return { httpStatus: 200, body: { received: true } };
    });
  }

  private async apply(tx: Tx, type: string, intent: Stripe.PaymentIntent): Promise<Outcome> {
    const purchase = await this.purchases.findByIntent(intent.id, tx.manager);
    if (!purchase) return { status: 'ignored', error: 'no purchase for this PaymentIntent' };
    const userId = purchase.userId;
    if (type === 'payment_intent.succeeded') {
      const mismatch = this.fulfilment.mismatch(intent, purchase);
      if (mismatch) {
        this.log.error(`Stripe event for purchase ${purchase.id} not fulfilled: ${mismatch}`);
        return { status: 'ignored', error: mismatch, userId };
      }
      await this.fulfilment.fulfil(tx, intent, purchase, 'webhook');
      return { status: 'processed', userId };
    }
    if (type === 'payment_intent.payment_failed') {
      const error = intent.last_payment_error;
      await this.purchases.transition(tx.manager, { id: purchase.id }, ['pending', 'payment_failed'], 'payment_failed', {
        failureReason: (error?.decline_code ?? error?.code ?? 'payment_failed').slice(0, 200),
        failureMessage: (error?.message ?? 'The payment failed.').slice(0, 2000),
      });
      return { status: 'processed', userId };
    }
    return { status: 'ignored', userId };
  }
}
