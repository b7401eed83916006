import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AutoTopup, AutoTopupOutcomeKind, AutoTopupSettings, AutoTopupSettled, LINE_TOPUP_PLAN_TIER, LINE_USAGE_NOT_FOUND_MESSAGE, RedemptionRpc, redeemablePlan } from '@esim/contracts';
import { AppError, RequestContext, RpcClient, Tx, UnitOfWork } from '@esim/platform';
import type { LineDetails } from '../keepgo/esim-provider';
import { EsimLineRecord } from '../lines/esim-line.entity';

/** What one automatic top-up adds: the 1 GB redeemable plan (1,000 points). */
const AUTO_TOPUP_PLAN = redeemablePlan(LINE_TOPUP_PLAN_TIER);

/** A trigger refused for the month's cap counts for nothing: it is no top-up (`usedThisMonth`, the cap). */
const COUNTED = `status <> 'capped'`;

interface SettledRow {
  id: string;
  user_id: string;
  iccid: string;
  remaining_mb: number;
  monthly_cap: number | null;
}

interface RuleRow {
  enabled: boolean;
  below_mb: number;
  monthly_cap: number;
}

/**
 * "When below X MB, top up 1 GB with my points" (docs/wallet.md, "Top-up with points"). A reading
 * below the rule's MB records a trigger for the line's data cycle (its allowed MB), unique per
 * line and cycle, under a per-line lock that also counts the month's triggers against the cap;
 * the trigger then asks rewards for the same redemption a one-tap top-up makes (rewards reserves
 * the spendable points, esim delivers: docs/redemption.md), as the user who set the rule, with an
 * Idempotency-Key derived from the trigger: one redemption per trigger, however many checks race,
 * replicas run or requests are sent again after a failure. How each trigger ended (asked for,
 * refused for points, refused for the cap) is announced once, with the status change that settles
 * it (`AutoTopupSettled`), so the user is told (docs/wallet.md, "Telling the user").
 */
@Injectable()
export class AutoTopups {
  private readonly log = new Logger('AutoTopups');

  constructor(
    private readonly db: DataSource,
    private readonly rpc: RpcClient,
    private readonly uow: UnitOfWork,
  ) {}

  async get(userId: string, iccid: string): Promise<AutoTopup> {
    await this.requireLine(userId, iccid);
    return this.view(userId, iccid);
  }

  async set(userId: string, iccid: string, s: AutoTopupSettings): Promise<AutoTopup> {
    await this.requireLine(userId, iccid);
    await this.db.query(
      `INSERT INTO auto_topup_rules (user_id, iccid, enabled, below_mb, monthly_cap) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, iccid) DO UPDATE SET enabled = EXCLUDED.enabled, below_mb = EXCLUDED.below_mb, monthly_cap = EXCLUDED.monthly_cap, updated_at = now()`,
      [userId, iccid, s.enabled, s.belowMb, s.monthlyCap],
    );
    this.log.log(`auto top-up of line ${iccid} for user ${userId}: ${s.enabled ? `below ${s.belowMb} MB, at most ${s.monthlyCap} a month` : 'off'}`);
    return this.view(userId, iccid);
  }

  /**
   * Checks a reading of the user's line against their rule, records a trigger when it is due, and
   * asks rewards for the redemption of every trigger of the line not asked for yet. Answers the
   * redemption ids asked for now.
   */
  async check(userId: string, line: LineDetails): Promise<string[]> {
    if (line.remainingMb === null || line.allowedMb === null) return [];
    const { remainingMb, allowedMb, iccid } = line;
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      // Serialises the checks of one line, so the month's count and the new trigger agree.
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`auto-topup:${iccid}`]);
      const [rule]: RuleRow[] = await m.query('SELECT enabled, below_mb, monthly_cap FROM auto_topup_rules WHERE user_id = $1 AND iccid = $2', [userId, iccid]);
      if (!rule?.enabled || remainingMb >= rule.below_mb) return;
      const [{ n }]: Array<{ n: number }> = await m.query(
        `SELECT count(*)::int AS n FROM auto_topup_triggers
          WHERE user_id = $1 AND iccid = $2 AND ${COUNTED} AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
        [userId, iccid],
      );
      if (n >= rule.monthly_cap) {
        // Recorded as a trigger of the cycle, so the refusal is told once; a later check under the
        // cap (next month, a raised cap) turns it into a real trigger below.
        const capped: SettledRow[] = await m.query(
          `INSERT INTO auto_topup_triggers (id, user_id, iccid, cycle_allowed_mb, remaining_mb, status) VALUES ($1, $2, $3, $4, $5, 'capped')
           ON CONFLICT ON CONSTRAINT auto_topup_triggers_once DO NOTHING RETURNING id, remaining_mb`,
          [randomUUID(), userId, iccid, allowedMb, remainingMb],
        );
        if (capped[0]) this.announce(tx, { ...capped[0], user_id: userId, iccid, monthly_cap: rule.monthly_cap }, 'monthly_cap', null);
        return;
      }
      await m.query(
        `INSERT INTO auto_topup_triggers (id, user_id, iccid, cycle_allowed_mb, remaining_mb, status) VALUES ($1, $2, $3, $4, $5, 'pending')
         ON CONFLICT ON CONSTRAINT auto_topup_triggers_once DO UPDATE SET status = 'pending', remaining_mb = EXCLUDED.remaining_mb, created_at = now()
          WHERE auto_topup_triggers.status = 'capped'`,
        [randomUUID(), userId, iccid, allowedMb, remainingMb],
      );
    });
    const pending: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM auto_topup_triggers WHERE user_id = $1 AND iccid = $2 AND status = 'pending' ORDER BY created_at`,
      [userId, iccid],
    );
    const asked: string[] = [];
    for (const { id } of pending) {
      const redemptionId = await this.request(userId, iccid, id);
      if (redemptionId) asked.push(redemptionId);
    }
    return asked;
  }

  /** Asks rewards for the trigger's redemption; a transient failure leaves it pending for the next check. */
  private async request(userId: string, iccid: string, triggerId: string): Promise<string | null> {
    try {
      const view = await RequestContext.run({ userId }, () =>
        this.rpc.call(RedemptionRpc.redeemPoints, {
          idempotencyKey: `auto-topup-${triggerId}`,
          request: { planTier: AUTO_TOPUP_PLAN.tier, purchaseType: 'existing', iccid },
        }),
      );
      await this.settle(triggerId, 'requested', view.redemptionId);
      this.log.log(`auto top-up of line ${iccid} for user ${userId}: redemption ${view.redemptionId} (${view.status})`);
      return view.redemptionId;
    } catch (err) {
      if (err instanceof AppError && err.reason === 'insufficient_points') {
        await this.settle(triggerId, 'no_points', null);
        this.log.log(`auto top-up of line ${iccid} for user ${userId}: not enough spendable points`);
        return null;
      }
      this.log.warn(`auto top-up of line ${iccid} for user ${userId}: will ask again (${(err as Error).message})`);
      return null;
    }
  }

  /**
   * Moves a pending trigger to its outcome and announces it in the same transaction. Two checks
   * racing get the same redemption from rewards; only the one that moves the row announces it.
   */
  private async settle(triggerId: string, outcome: 'requested' | 'no_points', redemptionId: string | null): Promise<void> {
    await this.uow.run(async (tx) => {
      const [row]: SettledRow[] = await tx.manager.query(
        `WITH settled AS (
           UPDATE auto_topup_triggers SET status = $2, redemption_id = $3 WHERE id = $1 AND status = 'pending'
           RETURNING id, user_id, iccid, remaining_mb)
         SELECT s.*, r.monthly_cap FROM settled s LEFT JOIN auto_topup_rules r ON r.user_id = s.user_id AND r.iccid = s.iccid`,
        [triggerId, outcome, redemptionId],
      );
      if (row) this.announce(tx, row, outcome, redemptionId);
    });
  }

  private announce(tx: Tx, row: SettledRow, outcome: AutoTopupOutcomeKind, redemptionId: string | null): void {
    tx.publish(AutoTopupSettled, {
      triggerId: row.id,
      userId: row.user_id,
      iccid: row.iccid,
      outcome,
      redemptionId,
      amountGB: AUTO_TOPUP_PLAN.amountGB,
      points: AUTO_TOPUP_PLAN.pointsCost,
      remainingMb: Math.max(0, row.remaining_mb),
      // A rule deleted meanwhile (the account is being deleted) still names a cap of at least one.
      monthlyCap: Math.max(1, row.monthly_cap ?? 1),
      settledAt: new Date().toISOString(),
    });
  }

  private async requireLine(userId: string, iccid: string): Promise<void> {
    const held = await this.db.getRepository(EsimLineRecord).exists({ where: { userId, iccid } });
    if (!held) throw new AppError('line_not_found', LINE_USAGE_NOT_FOUND_MESSAGE);
  }

  private async view(userId: string, iccid: string): Promise<AutoTopup> {
    const [rule]: RuleRow[] = await this.db.query('SELECT enabled, below_mb, monthly_cap FROM auto_topup_rules WHERE user_id = $1 AND iccid = $2', [userId, iccid]);
    const [month]: Array<{ n: number; last: Date | null }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS n, max(created_at) AS last
         FROM auto_topup_triggers WHERE user_id = $1 AND iccid = $2 AND ${COUNTED}`,
      [userId, iccid],
    );
    return {
      iccid,
      enabled: rule?.enabled ?? false,
      belowMb: rule?.below_mb ?? 200,
      monthlyCap: rule?.monthly_cap ?? 2,
      usedThisMonth: month?.n ?? 0,
      lastTriggeredAt: month?.last ? new Date(month.last).toISOString() : null,
    };
  }
}
