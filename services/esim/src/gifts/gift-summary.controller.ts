import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, GiftSummary } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

@Controller()
export class GiftSummaryController {
  constructor(private readonly db: DataSource) {}

  /** Totals of delivered gifts and the last one, as the user row shows them. */
  @RpcHandler(EsimRpc.getGiftSummary)
  async summary({ userId }: { userId: string }): Promise<GiftSummary> {
    const [row] = await this.db.query(
      `SELECT COALESCE(SUM(amount_gb), 0)::int AS total,
              (array_agg(iccid ORDER BY delivered_at DESC))[1] AS iccid,
              (array_agg(plan_tier ORDER BY delivered_at DESC))[1] AS plan_tier,
              MAX(delivered_at) AS last_at
         FROM data_gifts WHERE user_id = $1 AND status = 'delivered'`,
      [userId],
    );
    return {
      dataGiftedGB: row.total,
      iccid: row.iccid ?? null,
      planTierLastChosen: row.plan_tier ?? null,
      lastGiftedAt: row.last_at ? new Date(row.last_at).toISOString() : null,
    };
  }
}
