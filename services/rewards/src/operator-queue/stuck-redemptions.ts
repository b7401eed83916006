import { Injectable, Logger } from '@nestjs/common';
import { OperatorQueueItem, PointsReserved, RedemptionFacts, STUCK_AFTER_SECONDS } from '@esim/contracts';
import { AppError, UnitOfWork } from '@esim/platform';
import { DataSource } from 'typeorm';
import { pointsReservedOf } from '../redemptions/points-reserved-payload';
import { Redemption } from '../redemptions/redemption.entity';

/** A second retry of the same redemption within this long is refused: the first one is on its way. */
const RETRY_COOLDOWN_SECONDS = 60;

interface ActionRow {
  redemption_id: string;
  action: string;
  admin_id: string;
  detail: string | null;
  at: Date;
}

const notFound = () => new AppError('redemption_not_found', 'No such redemption.');

/**
 * Points redemptions whose reservation the eSIM side never picked up: still `processing` long
 * after the points were reserved (their PointsReserved is lost to esim, e.g. dead-lettered). An
 * operator can send it again (esim records one delivery per redemption whatever arrives twice),
 * or have esim refund or deliver it by hand from these facts (docs/admin.md, "Operator queue").
 */
@Injectable()
export class StuckRedemptions {
  private readonly log = new Logger('OperatorQueue');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
  ) {}

  async list(limit: number, stuckAfterSeconds = STUCK_AFTER_SECONDS): Promise<OperatorQueueItem[]> {
    const rows = await this.db.getRepository(Redemption).createQueryBuilder('r')
      .where(`r.status = 'processing'`)
      .andWhere(`r.created_at < now() - make_interval(secs => :secs)`, { secs: stuckAfterSeconds })
      .orderBy('r.created_at', 'ASC')
      .limit(limit)
      .getMany();
    if (rows.length === 0) return [];
    const actions: ActionRow[] = await this.db.query(
      'SELECT redemption_id, action, admin_id, detail, at FROM redemption_operator_actions WHERE redemption_id = ANY($1::uuid[]) ORDER BY at',
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => ({
      kind: 'redemption' as const,
      id: r.id,
      userId: r.userId,
      reason: 'stuck_reservation' as const,
      status: r.status,
      planTier: r.planTier,
      amountGB: r.amountGB,
      points: r.points,
      priceCents: null,
      currency: null,
      purchaseType: r.kind,
      country: r.country,
      targetIccid: r.targetIccid,
      failure: null,
      createdAt: r.createdAt.toISOString(),
      waitingSince: r.createdAt.toISOString(),
      actions: ['retry' as const, 'deliver' as const, 'refund' as const],
      note: null,
      history: [
        { at: r.createdAt.toISOString(), event: 'reserved', by: null, detail: `${r.points} points reserved for ${r.planTier}` },
        ...actions
          .filter((a) => a.redemption_id === r.id)
          .map((a) => ({ at: new Date(a.at).toISOString(), event: a.action, by: a.admin_id, detail: a.detail })),
      ],
    }));
  }

  async facts(redemptionId: string): Promise<RedemptionFacts> {
    const r = await this.db.getRepository(Redemption).findOneBy({ id: redemptionId });
    if (!r) throw notFound();
    return {
      redemptionId: r.id,
      userId: r.userId,
      status: r.status,
      planTier: r.planTier,
      amountGB: r.amountGB,
      points: r.points,
      kind: r.kind,
      country: r.country as RedemptionFacts['country'],
      targetIccid: r.targetIccid,
      createdAt: r.createdAt.toISOString(),
    };
  }

  /**
   * Publishes the redemption's PointsReserved again (same redemption, new event): esim takes it
   * once, whether or not the first one ever arrived. Refused unless still processing, and for a
   * minute after the last retry (two admins clicking at once send it once).
   */
  async retry(redemptionId: string, adminId: string): Promise<{ status: string; retriedAt: string }> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const r = await m.findOne(Redemption, { where: { id: redemptionId }, lock: { mode: 'pessimistic_write' } });
      if (!r) throw notFound();
      if (r.status !== 'processing')
        throw new AppError('already_resolved', `This redemption is no longer waiting (${r.status}).`, { details: { status: r.status } });
      const [recent] = await m.query(
        `SELECT at FROM redemption_operator_actions WHERE redemption_id = $1 AND action = 'retry' AND at > now() - make_interval(secs => $2) LIMIT 1`,
        [redemptionId, RETRY_COOLDOWN_SECONDS],
      );
      if (recent)
        throw new AppError('retry_in_progress', 'A retry of this redemption was just sent; wait a minute before sending another.');
      const [reservation] = await m.query('SELECT created_at FROM ledger_transfers WHERE id = $1', [r.reservationId]);
      tx.publish(PointsReserved, pointsReservedOf(r, new Date(reservation?.created_at ?? r.createdAt)));
      const [row] = await m.query(
        `INSERT INTO redemption_operator_actions (redemption_id, action, admin_id, detail) VALUES ($1, 'retry', $2, 'PointsReserved sent again') RETURNING at`,
        [redemptionId, adminId],
      );
      this.log.warn(`redemption ${redemptionId}: PointsReserved sent again by admin ${adminId}`);
      return { status: r.status, retriedAt: new Date(row.at).toISOString() };
    });
  }
}
