import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import {
  OperatorAction,
  OperatorQueueItem,
  OperatorResolution,
  RedemptionFacts,
  RpcRequest,
  EsimAdminRpc,
  STUCK_AFTER_SECONDS,
} from '@esim/contracts';
import { AppError, UnitOfWork } from '@esim/platform';
import { ProvisioningOutcomes } from '../provisioning/provisioning-outcomes';
import { PROVISIONING_SETTINGS, ProvisioningSettings } from '../provisioning/provisioning-settings';
import { ProvisioningSweeper } from '../provisioning/provisioning-sweeper';
import { Provisioning } from '../provisioning/provisioning.entity';

/** An operator's claim older than this without an outcome was cut off (a crash): the delivery can be acted on again. */
const INTERRUPTED_AFTER_SECONDS = 60;

export const OPERATOR_REFUND_MESSAGE = 'Our support team cancelled this delivery and gave back what it cost you.';

interface ActionRow {
  provisioning_id: string;
  action: string;
  admin_id: string | null;
  detail: string | null;
  at: Date;
}

interface Waiting {
  waiting: boolean;
  note: string | null;
}

const notFound = () => new AppError('operator_item_not_found', 'No such item in the operator queue.');

/**
 * esim's part of the operator queue (docs/admin.md): deliveries of points redemptions and gift
 * claims that need a person, and the three ways to end them. Each action first claims the
 * delivery under its row lock (only a delivery still waiting can be claimed, so of two admins
 * clicking at once one wins and the other gets a 409), then ends it through ProvisioningOutcomes
 * like any delivery: rewards settles the points from the outcome event, and
 * OperatorOutcomeListener publishes DeliveryResolved for the user's email in the same transaction.
 */
@Injectable()
export class DeliveryResolutions {
  private readonly log = new Logger('OperatorQueue');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly outcomes: ProvisioningOutcomes,
    private readonly sweeper: ProvisioningSweeper,
    @Inject(PROVISIONING_SETTINGS) private readonly settings: ProvisioningSettings,
  ) {}

  async list(limit: number, stuckAfterSeconds = STUCK_AFTER_SECONDS): Promise<OperatorQueueItem[]> {
    const rows = await this.db
      .getRepository(Provisioning)
      .createQueryBuilder('p')
      // A card purchase waits in payments' queue (esim_purchases), where its operator resolves it.
      .where(`p.source <> 'purchase'`)
      .andWhere(
        new Brackets((w) =>
          w
            .where(`p.status = 'manual_transfer_required'`)
            .orWhere(
              `p.status IN ('pending', 'in_progress') AND (p.created_at < now() - make_interval(secs => :secs) OR p.attempts > :max OR p.lease_until = 'infinity')`,
              { secs: stuckAfterSeconds, max: this.settings.maxAttempts },
            ),
        ),
      )
      .orderBy('COALESCE(p.completed_at, p.created_at)', 'ASC')
      .limit(limit)
      .getMany();
    if (rows.length === 0) return [];
    const actions = await this.actionsOf(this.db.manager, rows.map((r) => r.id));
    const now = Date.now();
    return rows.map((p) => {
      const history = actions.filter((a) => a.provisioning_id === p.id);
      const { waiting, note } = this.waiting(p, history, now, stuckAfterSeconds);
      return {
        kind: p.source === 'gift' ? ('gift-claim' as const) : ('redemption' as const),
        id: p.redemptionId,
        userId: p.userId,
        reason: p.status === 'manual_transfer_required' ? ('manual_transfer_required' as const) : ('stuck_provisioning' as const),
        status: p.status,
        planTier: p.planTier,
        amountGB: p.amountGB,
        points: p.points,
        priceCents: null,
        currency: null,
        purchaseType: p.kind,
        country: p.country,
        targetIccid: p.targetIccid,
        failure: p.failureReason ? { reason: p.failureReason, message: p.failureMessage ?? p.failureReason } : null,
        createdAt: p.createdAt.toISOString(),
        waitingSince: (p.completedAt ?? p.createdAt).toISOString(),
        actions: waiting ? (['retry', 'deliver', 'refund'] as OperatorAction[]) : [],
        note,
        history: [
          {
            at: p.createdAt.toISOString(),
            event: p.source === 'gift' ? 'gift_claimed' : 'points_reserved',
            by: null,
            detail: `${p.amountGB} GB, ${p.kind === 'new' ? `new eSIM (${p.country})` : `top-up of ${p.targetIccid}`}${p.points ? `, ${p.points} points` : ''}`,
          },
          { at: (p.completedAt ?? p.createdAt).toISOString(), event: 'provider_attempts', by: null, detail: `${p.attempts} attempt(s)` },
          ...(p.failureReason && p.completedAt
            ? [{ at: p.completedAt.toISOString(), event: 'failed', by: null, detail: `${p.failureReason}: ${p.failureMessage ?? ''}` }]
            : []),
          ...history.map((a) => ({ at: new Date(a.at).toISOString(), event: a.action, by: a.admin_id, detail: a.detail })),
        ],
      };
    });
  }

  /** Which of these redemptions have a delivery here, and its status. */
  async statuses(redemptionIds: string[]): Promise<Array<{ redemptionId: string; status: string }>> {
    if (redemptionIds.length === 0) return [];
    const rows: Array<{ redemption_id: string; status: string }> = await this.db.query(
      'SELECT redemption_id, status FROM provisionings WHERE redemption_id = ANY($1::uuid[])',
      [redemptionIds],
    );
    return rows.map((r) => ({ redemptionId: r.redemption_id, status: r.status }));
  }

  async resolve(req: RpcRequest<typeof EsimAdminRpc.resolveRedemption>, adminId: string): Promise<OperatorResolution> {
    const { redemptionId, source, action, facts } = req;
    if (action === 'deliver' && (!req.iccid || !req.lpaCode)) {
      throw new AppError('delivery_incomplete', 'Enter the ICCID and the activation code of the eSIM you delivered.');
    }
    const claimed = await this.uow.run(async (tx) => {
      const m = tx.manager;
      let p = await m.findOne(Provisioning, { where: { redemptionId }, lock: { mode: 'pessimistic_write' } });
      if (!p && facts && source === 'points' && action !== 'retry') p = await this.adoptStuckReservation(m, facts);
      if (!p || p.source !== source) throw notFound();
      const history = await this.actionsOf(m, [p.id]);
      if (!this.waiting(p, history, Date.now(), STUCK_AFTER_SECONDS).waiting) throw alreadyResolved(p, history);
      if (action === 'deliver' && p.kind === 'topup' && req.iccid !== p.targetIccid) {
        throw new AppError('wrong_line', `This is a top-up of the line ${p.targetIccid}: enter that ICCID.`);
      }
      if (action === 'retry') {
        await m.query(
          // The operator decided to send it again (for a new line, after checking KeepGo has none for it).
          `UPDATE provisionings SET status = 'pending', lease_until = now(), completed_at = NULL, failure_reason = NULL, failure_message = NULL,
                                    order_sent_at = NULL WHERE id = $1`,
          [p.id],
        );
      } else {
        // Claimed by the operator: in progress with a lease that never runs out, so the sweeper leaves it alone.
        await m.query(
          `UPDATE provisionings SET status = 'in_progress', lease_until = 'infinity', completed_at = NULL, failure_reason = NULL, failure_message = NULL WHERE id = $1`,
          [p.id],
        );
      }
      const detail = action === 'deliver' ? `ICCID ${req.iccid}` : action === 'refund' ? (p.source === 'points' ? `${p.points} points released` : 'gift claimable again') : 'sent to the provider again';
      const [row] = await m.query(
        `INSERT INTO provisioning_operator_actions (provisioning_id, action, admin_id, detail) VALUES ($1, $2, $3, $4) RETURNING at`,
        [p.id, action, adminId, detail],
      );
      return { p, at: new Date(row.at) };
    });
    const { p } = claimed;
    const kind = p.source === 'gift' ? ('gift-claim' as const) : ('redemption' as const);
    this.log.warn(`provisioning ${p.id} (redemption ${p.redemptionId}): ${action} by admin ${adminId}`);

    if (action === 'retry') {
      this.sweeper.wakeSoon();
      return { kind, id: redemptionId, action, status: 'pending', message: 'Sent to the eSIM provider again.', refundId: null, resolvedAt: claimed.at.toISOString() };
    }
    const ended =
      action === 'deliver'
        ? await this.outcomes.succeeded(p.id, { iccid: req.iccid!, lpaCode: req.lpaCode!, msisdn: null, transactionId: null })
        : await this.outcomes.refused(p.id, 'operator_refunded', OPERATOR_REFUND_MESSAGE);
    if (!ended) throw new AppError('already_resolved', 'This delivery changed while it was being resolved; reload the queue.');
    return {
      kind,
      id: redemptionId,
      action,
      status: action === 'deliver' ? (p.kind === 'new' ? 'esim_activation_ready' : 'completed') : 'failed',
      message: action === 'deliver' ? 'Delivery recorded; the user is emailed.' : p.source === 'points' ? `${p.points} points released; the user is emailed.` : 'The gift can be claimed again; the user is emailed.',
      refundId: null,
      resolvedAt: new Date().toISOString(),
    };
  }

  /**
   * A points redemption esim never received (its PointsReserved lost): its delivery is recorded
   * from rewards' facts, already claimed by the operator. The unique redemption id makes a
   * PointsReserved that arrives later change nothing.
   */
  private async adoptStuckReservation(m: EntityManager, facts: RedemptionFacts): Promise<Provisioning | null> {
    if (facts.status !== 'processing') throw new AppError('already_resolved', `This redemption is ${facts.status}: nothing to resolve.`, { details: { status: facts.status } });
    const id = randomUUID();
    await m.query(
      `INSERT INTO provisionings (id, redemption_id, user_id, source, kind, plan_tier, amount_gb, points, country, target_iccid, status, lease_until,
                                  created_at, completed_at, failure_reason, failure_message)
       VALUES ($1, $2, $3, 'points', $4, $5, $6, $7, $8, $9, 'manual_transfer_required', now(), $10, now(), 'stuck_reservation',
               'The reservation never reached the eSIM side.')
       ON CONFLICT (redemption_id) DO NOTHING`,
      [id, facts.redemptionId, facts.userId, facts.kind, facts.planTier, facts.amountGB, facts.points, facts.country, facts.targetIccid, facts.createdAt],
    );
    return m.findOne(Provisioning, { where: { redemptionId: facts.redemptionId }, lock: { mode: 'pessimistic_write' } });
  }

  private waiting(p: Provisioning, history: ActionRow[], now: number, stuckAfterSeconds: number): Waiting {
    if (p.status === 'manual_transfer_required') return { waiting: true, note: null };
    if (p.status !== 'pending' && p.status !== 'in_progress') return { waiting: false, note: null };
    const last = history[history.length - 1];
    const lease = leaseMs(p);
    if (lease === Infinity) {
      const since = last ? new Date(last.at).getTime() : 0;
      return now - since > INTERRUPTED_AFTER_SECONDS * 1000
        ? { waiting: true, note: `An operator's ${last?.action ?? 'action'} was interrupted; it can be done again.` }
        : { waiting: false, note: 'An operator is resolving it now.' };
    }
    const stuck = p.createdAt.getTime() < now - stuckAfterSeconds * 1000 || p.attempts > this.settings.maxAttempts;
    if (!stuck) return { waiting: false, note: null };
    if (lease > now) return { waiting: false, note: `A worker is on it until ${p.leaseUntil.toISOString()}.` };
    return { waiting: true, note: null };
  }

  private actionsOf(m: EntityManager, ids: string[]): Promise<ActionRow[]> {
    return m.query(
      'SELECT provisioning_id, action, admin_id, detail, at FROM provisioning_operator_actions WHERE provisioning_id = ANY($1::uuid[]) ORDER BY seq',
      [ids],
    );
  }
}

/** The lease as milliseconds; node-postgres reads 'infinity' (an operator's claim) as the number Infinity. */
function leaseMs(p: Provisioning): number {
  const lease = p.leaseUntil as unknown;
  return lease instanceof Date ? lease.getTime() : Number(lease);
}

function alreadyResolved(p: Provisioning, history: ActionRow[]): AppError {
  const last = [...history].reverse().find((a) => a.action !== 'outcome');
  const by = last ? ` (${last.action} at ${new Date(last.at).toISOString()})` : '';
  return new AppError('already_resolved', `This delivery is no longer waiting for a person: it is ${p.status}${by}.`, {
    details: { status: p.status, lastAction: last?.action ?? null, by: last?.admin_id ?? null },
  });
}
