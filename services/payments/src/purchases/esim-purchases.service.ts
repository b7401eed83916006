import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import type { PurchaseStatus } from '@esim/contracts';
import { afterCommit, Counter, Metrics } from '@esim/platform';
import { EsimPurchaseEntity } from './esim-purchase.entity';

/** Statuses of a purchase whose payment has not succeeded: not an eSIM the user holds. */
export const UNPAID_STATUSES: readonly PurchaseStatus[] = ['pending', 'payment_failed'];
const LIST_LIMIT = 200;

/**
 * The esim_purchases table. Every status change is one conditional UPDATE naming the statuses
 * it may leave, so concurrent callers serialise on the row and only one of them moves it.
 */
@Injectable()
export class EsimPurchasesService {
  private readonly statuses: Counter<'status'>;

  constructor(
    private readonly db: DataSource,
    metrics: Metrics,
  ) {
    this.statuses = metrics.counter({
      name: 'purchases_total',
      help: 'Card purchases reaching each status, counted at commit: pending (payment created), payment_failed, processing (paid, eSIM on its way), activated, manual_delivery_required (paid, no eSIM: an operator delivers), refunded.',
      labelNames: ['status'],
    });
  }

  async insert(purchase: Omit<EsimPurchaseEntity, 'createdAt' | 'updatedAt'>, m: EntityManager = this.db.manager): Promise<void> {
    await m.getRepository(EsimPurchaseEntity).insert(purchase);
    afterCommit(m, () => this.statuses.inc({ status: purchase.status }));
  }

  findByIntent(paymentIntentId: string, m: EntityManager = this.db.manager): Promise<EsimPurchaseEntity | null> {
    return m.getRepository(EsimPurchaseEntity).findOneBy({ paymentIntentId });
  }

  findById(id: string, m: EntityManager = this.db.manager): Promise<EsimPurchaseEntity | null> {
    return m.getRepository(EsimPurchaseEntity).findOneBy({ id });
  }

  /** The user's paid purchases, newest first. */
  listPaid(userId: string): Promise<EsimPurchaseEntity[]> {
    return this.db.getRepository(EsimPurchaseEntity).find({
      where: { userId, status: Not(In([...UNPAID_STATUSES])) },
      order: { createdAt: 'DESC' },
      take: LIST_LIMIT,
    });
  }

  /**
   * Moves the purchase from `from` to `to` with the given changes; returns the updated row, or
   * null when it was not in one of `from` (another caller got there first, or it never was).
   */
  async transition(
    m: EntityManager,
    where: { id: string } | { paymentIntentId: string },
    from: readonly PurchaseStatus[],
    to: PurchaseStatus,
    changes: Partial<Pick<EsimPurchaseEntity, 'iccid' | 'lpaCode' | 'msisdn' | 'qrCode' | 'providerOrderId' | 'failureReason' | 'failureMessage'>> & {
      paidNow?: boolean;
      activatedNow?: boolean;
    } = {},
  ): Promise<EsimPurchaseEntity | null> {
    const { paidNow, activatedNow, ...columns } = changes;
    const result = await m
      .createQueryBuilder()
      .update(EsimPurchaseEntity)
      .set({
        ...columns,
        status: to,
        updatedAt: () => 'now()',
        ...(paidNow ? { paidAt: () => 'now()' } : {}),
        ...(activatedNow ? { activatedAt: () => 'now()' } : {}),
      })
      .where('id' in where ? 'id = :id' : 'payment_intent_id = :paymentIntentId', where)
      .andWhere('status IN (:...from)', { from })
      .returning('*')
      .execute();
    const rows = result.raw as Array<Record<string, unknown>>;
    if (rows.length > 0) afterCommit(m, () => this.statuses.inc({ status: to }));
    return rows.length === 0 ? null : m.getRepository(EsimPurchaseEntity).create(fromRaw(rows[0]));
  }
}

/** A RETURNING row (column names) as the entity's fields. */
function fromRaw(row: Record<string, unknown>): Partial<EsimPurchaseEntity> {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    planType: row.plan_type as EsimPurchaseEntity['planType'],
    amountGB: row.amount_gb as number,
    priceUSD: row.price_usd as number,
    currency: row.currency as string,
    country: row.country as EsimPurchaseEntity['country'],
    paymentMethod: row.payment_method as EsimPurchaseEntity['paymentMethod'],
    paymentIntentId: row.payment_intent_id as string,
    status: row.status as PurchaseStatus,
    iccid: row.iccid as string | null,
    lpaCode: row.lpa_code as string | null,
    msisdn: row.msisdn as string | null,
    qrCode: row.qr_code as string | null,
    providerOrderId: row.provider_order_id as string | null,
    failureReason: row.failure_reason as string | null,
    failureMessage: row.failure_message as string | null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    paidAt: row.paid_at as Date | null,
    activatedAt: row.activated_at as Date | null,
  };
}
