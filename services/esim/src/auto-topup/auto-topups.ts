import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AutoTopup, AutoTopupSettings, LINE_USAGE_NOT_FOUND_MESSAGE, RedemptionRpc } from '@esim/contracts';
import { AppError, RequestContext, RpcClient } from '@esim/platform';
import type { LineDetails } from '../keepgo/esim-provider';
import { EsimLineRecord } from '../lines/esim-line.entity';

/** What one automatic top-up adds: the 1 GB redeemable plan (1,000 points). */
const AUTO_TOPUP_PLAN = '1GB' as const;

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
 * replicas run or requests are sent again after a failure.
 */
@Injectable()
export class AutoTopups {
  private readonly log = new Logger('AutoTopups');

  constructor(
    private readonly db: DataSource,
    private readonly rpc: RpcClient,
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
    await this.db.transaction(async (m) => {
      // Serialises the checks of one line, so the month's count and the new trigger agree.
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`auto-topup:${iccid}`]);
      const [rule]: RuleRow[] = await m.query('SELECT enabled, below_mb, monthly_cap FROM auto_topup_rules WHERE user_id = $1 AND iccid = $2', [userId, iccid]);
      if (!rule?.enabled || remainingMb >= rule.below_mb) return;
      const [{ n }]: Array<{ n: number }> = await m.query(
        `SELECT count(*)::int AS n FROM auto_topup_triggers
          WHERE user_id = $1 AND iccid = $2 AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
        [userId, iccid],
      );
      if (n >= rule.monthly_cap) return;
      await m.query(
        `INSERT INTO auto_topup_triggers (id, user_id, iccid, cycle_allowed_mb, remaining_mb, status) VALUES ($1, $2, $3, $4, $5, 'pending')
         ON CONFLICT ON CONSTRAINT auto_topup_triggers_once DO NOTHING`,
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
          request: { planTier: AUTO_TOPUP_PLAN, purchaseType: 'existing', iccid },
        }),
      );
      await this.db.query(`UPDATE auto_topup_triggers SET status = 'requested', redemption_id = $2 WHERE id = $1`, [triggerId, view.redemptionId]);
      this.log.log(`auto top-up of line ${iccid} for user ${userId}: redemption ${view.redemptionId} (${view.status})`);
      return view.redemptionId;
    } catch (err) {
      if (err instanceof AppError && err.reason === 'insufficient_points') {
        await this.db.query(`UPDATE auto_topup_triggers SET status = 'no_points' WHERE id = $1`, [triggerId]);
        this.log.log(`auto top-up of line ${iccid} for user ${userId}: not enough spendable points`);
        return null;
      }
      this.log.warn(`auto top-up of line ${iccid} for user ${userId}: will ask again (${(err as Error).message})`);
      return null;
    }
  }

  private async requireLine(userId: string, iccid: string): Promise<void> {
    const held = await this.db.getRepository(EsimLineRecord).exists({ where: { userId, iccid } });
    if (!held) throw new AppError('line_not_found', LINE_USAGE_NOT_FOUND_MESSAGE);
  }

  private async view(userId: string, iccid: string): Promise<AutoTopup> {
    const [rule]: RuleRow[] = await this.db.query('SELECT enabled, below_mb, monthly_cap FROM auto_topup_rules WHERE user_id = $1 AND iccid = $2', [userId, iccid]);
    const [month]: Array<{ n: number; last: Date | null }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS n, max(created_at) AS last
         FROM auto_topup_triggers WHERE user_id = $1 AND iccid = $2`,
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
