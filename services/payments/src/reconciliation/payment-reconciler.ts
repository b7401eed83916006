import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type Stripe from 'stripe';
import { In } from 'typeorm';
import { DataSource } from 'typeorm';
import { CONFIG, UnitOfWork } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import { EsimPurchaseEntity } from '../purchases/esim-purchase.entity';
import { EsimPurchasesService, UNPAID_STATUSES } from '../purchases/esim-purchases.service';
import { FulfilmentService } from '../purchases/fulfilment.service';
import { StripeApiService } from '../stripe/stripe-api.service';

/** Purchases one pass checks with Stripe. */
const BATCH = 50;
/** The longest wait between two checks of the same purchase. */
const MAX_BACKOFF_MS = 6 * 3600_000;

/** What a check of one purchase came to (for the log and tests). */
export type ReconcileOutcome = 'fulfilled' | 'already' | 'unpaid' | 'mismatch' | 'canceled' | 'error';

/**
 * Stripe's webhook is how a paid purchase normally learns it was paid, with the confirmation call
 * after the redirect as the other way. Both can be lost (the ingestion service down longer than
 * Stripe retries, a buyer who closes the tab), leaving money taken and nothing delivered. This
 * loop asks Stripe, through the same SDK client, about every purchase still unpaid after
 * PAYMENTS_RECONCILE_AFTER_MS, and fulfils the paid ones through FulfilmentService, the path the
 * webhook takes: its conditional UPDATE lets exactly one of reconciliation, webhook and
 * confirmation order the eSIM, whatever order they come in.
 *
 * Claiming is one UPDATE … FOR UPDATE SKIP LOCKED that also sets the purchase's next check
 * (`reconcile_after`, backing off), so two replicas never check the same purchase in one round.
 * A succeeded intent that does not pay its purchase (amount, currency, metadata) cannot be
 * fulfilled automatically: the purchase goes to `manual_delivery_required` with reason
 * `payment_mismatch`, into the operator queue, where an operator refunds or delivers it.
 */
@Injectable()
export class PaymentReconciler implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly log = new Logger('PaymentReconciler');
  private timer?: NodeJS.Timeout;
  private pass?: Promise<void>;
  private stopped = true;

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly api: StripeApiService,
    private readonly purchases: EsimPurchasesService,
    private readonly fulfilment: FulfilmentService,
    private readonly http: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.config.PAYMENTS_RECONCILE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops before the HTTP server (and the sandbox Stripe on it) goes away. */
  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.onModuleDestroy();
    await this.pass;
  }

  private wake(): void {
    if (this.stopped || this.pass || !this.serving()) return;
    this.pass = this.reconcileDue()
      .then(() => undefined)
      .catch((err: unknown) => this.log.warn(`reconciliation pass failed, will retry: ${(err as Error).message}`))
      .finally(() => (this.pass = undefined));
  }

  /** The sandbox Stripe is served on this service's own port: nothing is asked before it listens. */
  private serving(): boolean {
    const server = this.http.httpAdapter?.getHttpServer() as { listening?: boolean } | undefined;
    return server?.listening === true;
  }

  /** One pass: claims the purchases due a check and checks each with Stripe. */
  async reconcileDue(): Promise<ReconcileOutcome[]> {
    const [claimed]: [Array<{ id: string }>, number] = await this.db.query(
      `UPDATE esim_purchases
          SET reconcile_checks = reconcile_checks + 1,
              reconcile_after = now() + make_interval(secs => least($2::double precision * power(2, reconcile_checks), $3::double precision) / 1000)
        WHERE id IN (SELECT id FROM esim_purchases
                      WHERE status = ANY($1::text[])
                        AND created_at <= now() - make_interval(secs => $2::double precision / 1000)
                        AND created_at > now() - make_interval(hours => $4::int)
                        AND (reconcile_after IS NULL OR reconcile_after <= now())
                      ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [UNPAID_STATUSES, Math.max(this.config.PAYMENTS_RECONCILE_AFTER_MS, 1_000), MAX_BACKOFF_MS, this.config.PAYMENTS_RECONCILE_GIVE_UP_HOURS, BATCH],
    );
    if (claimed.length === 0) return [];
    const rows = await this.db.manager.findBy(EsimPurchaseEntity, { id: In(claimed.map((c) => c.id)) });
    const outcomes: ReconcileOutcome[] = [];
    for (const purchase of rows) {
      if (this.stopped) break;
      outcomes.push(await this.check(purchase));
    }
    return outcomes;
  }

  private async check(purchase: EsimPurchaseEntity): Promise<ReconcileOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.api.call('paymentIntents.retrieve', (stripe) => stripe.paymentIntents.retrieve(purchase.paymentIntentId));
    } catch (err) {
      this.log.warn(`purchase ${purchase.id}: Stripe could not be asked about ${purchase.paymentIntentId} (${(err as Error).message}); checked again later`);
      return 'error';
    }
    if (intent.status === 'canceled') {
      await this.db.query(`UPDATE esim_purchases SET reconcile_after = 'infinity' WHERE id = $1`, [purchase.id]);
      return 'canceled';
    }
    if (intent.status !== 'succeeded') return 'unpaid';
    const mismatch = this.fulfilment.mismatch(intent, purchase);
    if (mismatch) {
      this.log.error(`purchase ${purchase.id}: Stripe reports ${intent.id} paid, but it does not pay the purchase (${mismatch}); an operator decides`);
      const moved = await this.uow.run((tx) =>
        this.purchases.transition(tx.manager, { id: purchase.id }, UNPAID_STATUSES, 'manual_delivery_required', {
          paidNow: true,
          failureReason: 'payment_mismatch',
          failureMessage: `Stripe reports ${intent.id} paid, but ${mismatch}.`.slice(0, 2000),
        }),
      );
      return moved ? 'mismatch' : 'already';
    }
    const done = await this.uow.run((tx) => this.fulfilment.fulfil(tx, intent, purchase, 'reconciliation'));
    if (done === 'fulfilled') this.log.warn(`purchase ${purchase.id}: paid at Stripe but never told (webhook and confirmation lost); fulfilled by reconciliation`);
    return done;
  }
}
