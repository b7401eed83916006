import { Injectable, Logger } from '@nestjs/common';
import QRCode from 'qrcode';
import Stripe from 'stripe';
import { DataSource, EntityManager } from 'typeorm';
import {
  PurchaseCompleted,
  OperatorAction,
  OperatorQueueItem,
  OperatorResolution,
  PaymentSucceeded,
  PaymentsAdminRpc,
  PurchaseResolved,
  RpcRequest,
  STUCK_AFTER_SECONDS,
  type PriceCurrency,
} from '@esim/contracts';
import { AppError, UnitOfWork } from '@esim/platform';
import { EsimPurchaseEntity } from '../purchases/esim-purchase.entity';
import { EsimPurchasesService } from '../purchases/esim-purchases.service';
import { purchaseCompleted } from '../purchases/purchase-completed';
import { StripeApiService } from '../stripe/stripe-api.service';

/** A second retry of one purchase within this long is refused: the first one is on its way. */
const RETRY_COOLDOWN_SECONDS = 60;

interface ActionRow {
  purchase_id: string;
  action: string;
  admin_id: string;
  detail: string | null;
  refund_id: string | null;
  at: Date;
}

/** Our idempotency key for a purchase's refund: however often it is asked, Stripe refunds once. */
export const refundIdempotencyKey = (purchaseId: string) => `esim-purchase:${purchaseId}:refund`;

const notFound = () => new AppError('operator_item_not_found', 'No such item in the operator queue.');

/**
 * Card purchases whose eSIM needs a person (docs/admin.md, "Operator queue"): paid, and the
 * provider did not issue the eSIM (`manual_delivery_required`), or nothing came back long after
 * the payment (`processing`). Every action holds the purchase's row lock from its check to its
 * commit, so of two admins clicking at once one acts and the other gets a 409. A card refund is
 * made while that lock is held, with our idempotency key: a refund retried after a lost answer or
 * a failed commit is the same refund at Stripe.
 */
@Injectable()
export class PurchaseResolutions {
  private readonly log = new Logger('OperatorQueue');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly purchases: EsimPurchasesService,
    private readonly stripeApi: StripeApiService,
  ) {}

  async list(limit: number, stuckAfterSeconds = STUCK_AFTER_SECONDS): Promise<OperatorQueueItem[]> {
    const rows = await this.db
      .getRepository(EsimPurchaseEntity)
      .createQueryBuilder('p')
      .where(`p.status = 'manual_delivery_required'`)
      .orWhere(`p.status = 'processing' AND p.paid_at < now() - make_interval(secs => :secs)`, { secs: stuckAfterSeconds })
      .orderBy('p.paid_at', 'ASC')
      .limit(limit)
      .getMany();
    if (rows.length === 0) return [];
    const actions = await this.actionsOf(this.db.manager, rows.map((r) => r.id));
    return rows.map((p) => {
      const history = actions.filter((a) => a.purchase_id === p.id);
      const manual = p.status === 'manual_delivery_required';
      return {
        kind: 'purchase' as const,
        id: p.id,
        userId: p.userId,
        reason: manual ? ('manual_delivery_required' as const) : ('stuck_payment' as const),
        status: p.status,
        planTier: p.planType,
        amountGB: p.amountGB,
        points: 0,
        priceCents: p.priceUSD,
        currency: p.currency.toUpperCase() as PriceCurrency,
        purchaseType: 'new' as const,
        country: p.country,
        targetIccid: null,
        failure: p.failureReason ? { reason: p.failureReason, message: p.failureMessage ?? p.failureReason } : null,
        createdAt: p.createdAt.toISOString(),
        waitingSince: (manual ? p.updatedAt : (p.paidAt ?? p.createdAt)).toISOString(),
        actions: manual ? (['retry', 'deliver', 'refund'] as OperatorAction[]) : (['retry'] as OperatorAction[]),
        note: manual ? null : 'The eSIM order got no answer: retry it (the provider takes one order per purchase).',
        history: [
          { at: p.createdAt.toISOString(), event: 'created', by: null, detail: `${p.planType} for ${p.country}, ${(p.priceUSD / 100).toFixed(2)} ${p.currency.toUpperCase()}` },
          ...(p.paidAt ? [{ at: p.paidAt.toISOString(), event: 'paid', by: null, detail: p.paymentIntentId }] : []),
          ...(p.failureReason ? [{ at: p.updatedAt.toISOString(), event: 'failed', by: null, detail: `${p.failureReason}: ${p.failureMessage ?? ''}` }] : []),
          ...history.map((a) => ({ at: new Date(a.at).toISOString(), event: a.action, by: a.admin_id, detail: a.refund_id ? `${a.detail ?? ''} ${a.refund_id}`.trim() : a.detail })),
        ],
      };
    });
  }

  async resolve(req: RpcRequest<typeof PaymentsAdminRpc.resolvePurchase>, adminId: string): Promise<OperatorResolution> {
    if (req.action === 'deliver' && (!req.iccid || !req.lpaCode)) {
      throw new AppError('delivery_incomplete', 'Enter the ICCID and the activation code of the eSIM you delivered.');
    }
    const qrCode = req.action === 'deliver' ? await QRCode.toDataURL(req.lpaCode!, { errorCorrectionLevel: 'M', margin: 2, width: 320 }) : null;
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const p = await m.findOne(EsimPurchaseEntity, { where: { id: req.purchaseId }, lock: { mode: 'pessimistic_write' } });
      if (!p) throw notFound();
      const history = await this.actionsOf(m, [p.id]);
      const manual = p.status === 'manual_delivery_required';
      const stuck = p.status === 'processing' && !!p.paidAt && p.paidAt.getTime() < Date.now() - STUCK_AFTER_SECONDS * 1000;
      if (!(manual || (stuck && req.action === 'retry'))) throw alreadyResolved(p, history);
      const now = new Date();
      const base = { kind: 'purchase' as const, id: p.id, action: req.action, resolvedAt: now.toISOString() };

      if (req.action === 'retry') {
        const recent = history.filter((a) => a.action === 'retry' && new Date(a.at).getTime() > now.getTime() - RETRY_COOLDOWN_SECONDS * 1000);
        if (recent.length > 0) throw new AppError('retry_in_progress', 'A retry of this purchase was just sent; wait a minute before sending another.');
        if (manual) await this.purchases.transition(m, { id: p.id }, ['manual_delivery_required'], 'processing', { failureReason: null, failureMessage: null });
        // The same purchase id is the provider reference again: one eSIM per purchase, however often ordered.
        tx.publish(PaymentSucceeded, {
          purchaseId: p.id,
          userId: p.userId,
          planType: p.planType,
          amountGB: p.amountGB,
          country: p.country,
          paymentIntentId: p.paymentIntentId,
          amountCents: p.priceUSD,
        });
        await this.act(m, p.id, 'retry', adminId, 'eSIM ordered again');
        this.log.warn(`purchase ${p.id}: eSIM ordered again by admin ${adminId}`);
        return { ...base, status: 'processing', message: 'The eSIM was ordered again.', refundId: null };
      }

      if (req.action === 'deliver') {
        const done = await this.purchases.transition(m, { id: p.id }, ['manual_delivery_required'], 'activated', {
          iccid: req.iccid!,
          lpaCode: req.lpaCode!,
          qrCode,
          failureReason: null,
          failureMessage: null,
          activatedNow: true,
        });
        if (!done) throw alreadyResolved(p, history);
        await this.act(m, p.id, 'deliver', adminId, `ICCID ${req.iccid}`);
        tx.publish(PurchaseResolved, this.resolved(p, 'delivered', adminId, now, { iccid: req.iccid!, lpaCode: req.lpaCode!, refundId: null }));
        tx.publish(PurchaseCompleted, purchaseCompleted(done));
        this.log.warn(`purchase ${p.id}: eSIM ${req.iccid} delivered by hand by admin ${adminId}`);
        return { ...base, status: 'activated', message: 'Delivery recorded; the user is emailed.', refundId: null };
      }

      const refundId = await this.refundCard(p);
      const done = await this.purchases.transition(m, { id: p.id }, ['manual_delivery_required'], 'refunded', { failureReason: null, failureMessage: null });
      if (!done) throw alreadyResolved(p, history);
      await this.act(m, p.id, 'refund', adminId, `${(p.priceUSD / 100).toFixed(2)} ${p.currency.toUpperCase()} refunded`, refundId);
      tx.publish(PurchaseResolved, this.resolved(p, 'refunded', adminId, now, { iccid: null, lpaCode: null, refundId }));
      this.log.warn(`purchase ${p.id}: card refunded (${refundId ?? 'already refunded at Stripe'}) by admin ${adminId}`);
      return { ...base, status: 'refunded', message: 'The card was refunded; the user is emailed.', refundId };
    });
  }

  /**
   * Refunds the whole payment with our idempotency key. Stripe answering that the charge is
   * already refunded means an earlier attempt refunded it (past the key's 24 hours): that refund
   * stands. Anything else refunds nothing here: a 502, and the purchase stays as it was.
   */
  private async refundCard(p: EsimPurchaseEntity): Promise<string | null> {
    try {
      const refund = await this.stripeApi.call('refunds.create', (stripe) =>
        stripe.refunds.create(
          { payment_intent: p.paymentIntentId, reason: 'requested_by_customer', metadata: { purchaseId: p.id } },
          { idempotencyKey: refundIdempotencyKey(p.id) },
        ),
      );
      return refund.id;
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') return null;
      const message = err instanceof Error ? err.message : String(err);
      this.log.error(`purchase ${p.id}: Stripe did not refund: ${message}`);
      throw new AppError('refund_failed', `Stripe did not refund the card: ${message}`);
    }
  }

  private resolved(
    p: EsimPurchaseEntity,
    resolution: 'delivered' | 'refunded',
    adminId: string,
    at: Date,
    extra: { iccid: string | null; lpaCode: string | null; refundId: string | null },
  ) {
    return {
      purchaseId: p.id,
      userId: p.userId,
      planType: p.planType,
      amountGB: p.amountGB,
      country: p.country,
      resolution,
      ...extra,
      amountCents: p.priceUSD,
      currency: p.currency,
      resolvedBy: adminId,
      resolvedAt: at.toISOString(),
    };
  }

  private async act(m: EntityManager, purchaseId: string, action: OperatorAction, adminId: string, detail: string, refundId: string | null = null): Promise<void> {
    await m.query('INSERT INTO purchase_operator_actions (purchase_id, action, admin_id, detail, refund_id) VALUES ($1, $2, $3, $4, $5)', [
      purchaseId,
      action,
      adminId,
      detail,
      refundId,
    ]);
  }

  private actionsOf(m: EntityManager, ids: string[]): Promise<ActionRow[]> {
    return m.query('SELECT purchase_id, action, admin_id, detail, refund_id, at FROM purchase_operator_actions WHERE purchase_id = ANY($1::uuid[]) ORDER BY seq', [ids]);
  }
}

function alreadyResolved(p: EsimPurchaseEntity, history: ActionRow[]): AppError {
  const last = history[history.length - 1];
  const by = last ? ` (${last.action} at ${new Date(last.at).toISOString()})` : '';
  return new AppError('already_resolved', `This purchase is no longer waiting for a person: it is ${p.status}${by}.`, {
    details: { status: p.status, lastAction: last?.action ?? null, by: last?.admin_id ?? null },
  });
}
