import { Controller, Inject, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PaymentsRpc, PriceCurrency, PurchaseLineRpc, PurchaseRefund, PurchaseRefunded, RpcMeta, RpcRequest } from '@esim/contracts';
import { actingUserId, AppError, CONFIG, RpcClient, RpcHandler, UnitOfWork } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import type { EsimPurchaseEntity } from '../purchases/esim-purchase.entity';
import { EsimPurchasesService } from '../purchases/esim-purchases.service';
import { StripeApiService } from '../stripe/stripe-api.service';
import { RefundEligibilityService } from './refund-eligibility.service';

/** A refund claimed by a request that has not finished after this long (a crash) may be taken over by the next request. */
const STALE_CLAIM_MS = 120_000;

interface RefundRow {
  status: 'pending' | 'succeeded';
  requested_at: Date;
  completed_at: Date | null;
}

/**
 * POST /api/esim-purchases/:id/refund (docs/payments.md, "Refunds"): the buyer refunds a purchase
 * whose eSIM was never installed nor used, within REFUND_WINDOW_DAYS of paying. Once, whatever is
 * clicked twice or on two devices: the first request claims the refund with a row whose primary
 * key is the purchase (purchase_refunds), so a concurrent one finds the claim and answers
 * `refund_pending` (then `refunded`) without doing anything. The claimant asks esim to cancel the
 * line at KeepGo (refused if installed or used: the claim is let go, nothing is refunded), refunds
 * through Stripe with an idempotency key of the purchase (one refund at Stripe even if a stale
 * claim is taken over and the call repeated), then records the refund and marks the purchase
 * refunded in one transaction.
 */
@Controller()
export class RequestRefundRpcHandler {
  private readonly log = new Logger('PurchaseRefunds');

  constructor(
    private readonly db: DataSource,
    private readonly purchases: EsimPurchasesService,
    private readonly api: StripeApiService,
    private readonly rpc: RpcClient,
    private readonly uow: UnitOfWork,
    private readonly eligibility: RefundEligibilityService,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  @RpcHandler(PaymentsRpc.requestRefund)
  async refund({ purchaseId }: RpcRequest<typeof PaymentsRpc.requestRefund>, meta: RpcMeta): Promise<PurchaseRefund> {
    const userId = actingUserId(meta);
    const p = await this.purchases.findById(purchaseId);
    // Someone else's purchase is answered as an unknown one: ids are not to be probed.
    if (!p || p.userId !== userId) throw new AppError('payment_not_found', 'Purchase not found.');
    const existing = await this.claimOf(p.id);
    if (existing?.status === 'succeeded') return this.view(p, existing);
    if (!existing) {
      if (p.status !== 'activated') throw notAllowed('not_activated', `This purchase cannot be refunded here (status ${p.status}).`);
      if (Date.now() > this.eligibility.refundableUntil(p)!.getTime()) {
        throw notAllowed('window_passed', `Refunds can be asked for within ${this.config.REFUND_WINDOW_DAYS} days of paying.`);
      }
    }
    if (!(await this.claim(p, existing))) return this.view(p, (await this.claimOf(p.id))!);

    const line = await this.rpc.call(PurchaseLineRpc.cancelUnusedLine, { purchaseId: p.id, iccid: p.iccid! });
    if (!line.cancelled) {
      await this.db.query(`DELETE FROM purchase_refunds WHERE purchase_id = $1 AND status = 'pending'`, [p.id]);
      const why = line.reason ?? 'used';
      this.log.log(`purchase ${p.id}: refund refused, the line is ${why} (${line.providerStatus ?? 'unknown'})`);
      throw notAllowed(why, why === 'installed' ? 'This eSIM was already installed on a phone.' : why === 'used' ? 'Data of this eSIM was already used.' : 'The provider does not know this eSIM.');
    }

    let refundId: string;
    try {
      const refund = await this.api.call('refunds.create', (stripe) =>
        stripe.refunds.create(
          { payment_intent: p.paymentIntentId, reason: 'requested_by_customer', metadata: { purchaseId: p.id, via: 'self-serve' } },
          { idempotencyKey: `esim-purchase:${p.id}:self-refund` },
        ),
      );
      refundId = refund.id;
    } catch (err) {
      // The line is cancelled and the claim kept: asking again (after STALE_CLAIM_MS) repeats the
      // same Stripe call with the same key, so it refunds once.
      this.log.error(`purchase ${p.id}: the Stripe refund failed: ${(err as Error).message}`);
      throw new AppError('payment_provider_unavailable', 'The refund could not be made right now. Please try again in a few minutes.');
    }
    return this.uow.run(async (tx) => {
      // An UPDATE … RETURNING is answered as [rows, affected count].
      const [[row]] = (await tx.manager.query(
        `UPDATE purchase_refunds SET status = 'succeeded', stripe_refund_id = $2, completed_at = now() WHERE purchase_id = $1 AND status = 'pending' RETURNING status, requested_at, completed_at`,
        [p.id, refundId],
      )) as [RefundRow[], number];
      await this.purchases.transition(tx.manager, { id: p.id }, ['activated'], 'refunded', {});
      // Only the request that recorded the refund tells the buyer (a taken-over claim finds it done).
      if (row) {
        tx.publish(PurchaseRefunded, {
          purchaseId: p.id,
          userId: p.userId,
          planType: p.planType,
          amountGB: p.amountGB,
          amountMinor: p.priceUSD,
          currency: p.currency.toUpperCase() as PriceCurrency,
          paymentMethod: p.paymentMethod,
          stripeRefundId: refundId,
          refundedAt: new Date(row.completed_at!).toISOString(),
        });
      }
      this.log.warn(`purchase ${p.id}: refunded by its buyer (${refundId}, ${p.priceUSD} ${p.currency}, ${p.paymentMethod})`);
      return this.view(p, row ?? (await this.claimOf(p.id, tx.manager))!);
    });
  }

  /** Takes the refund of the purchase for this request: a new claim, or a stale one taken over. False when another request holds it. */
  private async claim(p: EsimPurchaseEntity, existing: RefundRow | null): Promise<boolean> {
    if (!existing) {
      const claimed: unknown[] = await this.db.query(
        `INSERT INTO purchase_refunds (purchase_id, user_id, amount, currency) VALUES ($1, $2, $3, $4) ON CONFLICT (purchase_id) DO NOTHING RETURNING purchase_id`,
        [p.id, p.userId, p.priceUSD, p.currency],
      );
      return claimed.length === 1;
    }
    const [, taken] = (await this.db.query(
      `UPDATE purchase_refunds SET requested_at = now() WHERE purchase_id = $1 AND status = 'pending' AND requested_at < now() - make_interval(secs => $2)`,
      [p.id, STALE_CLAIM_MS / 1000],
    )) as [unknown, number];
    return taken === 1;
  }

  private async claimOf(purchaseId: string, m = this.db.manager): Promise<RefundRow | null> {
    const [row]: RefundRow[] = await m.query(`SELECT status, requested_at, completed_at FROM purchase_refunds WHERE purchase_id = $1`, [purchaseId]);
    return row ?? null;
  }

  private view(p: EsimPurchaseEntity, row: RefundRow): PurchaseRefund {
    return {
      purchaseId: p.id,
      status: row.status === 'succeeded' ? 'refunded' : 'refund_pending',
      amount: p.priceUSD,
      currency: p.currency.toUpperCase() as PriceCurrency,
      refundedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    };
  }
}

function notAllowed(why: 'window_passed' | 'installed' | 'used' | 'not_activated' | 'not_found', message: string): AppError {
  return new AppError('refund_not_allowed', message, { details: { why } });
}
