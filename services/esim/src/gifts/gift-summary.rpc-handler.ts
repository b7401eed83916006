import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, GiftSummary, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

interface SummaryRow {
  user_id: string;
  total: number;
  iccid: string | null;
  plan_tier: string | null;
  last_at: Date | null;
}

const EMPTY: GiftSummary = { dataGiftedGB: 0, iccid: null, planTierLastChosen: null, lastGiftedAt: null };

@Controller()
export class GiftSummaryRpcHandler {
  constructor(private readonly db: DataSource) {}

  /** Totals of delivered gifts and the last one, as the user row shows them. */
  @RpcHandler(EsimRpc.getGiftSummary)
  async summary({ userId }: RpcRequest<typeof EsimRpc.getGiftSummary>): Promise<GiftSummary> {
    return (await this.summariesOf([userId])).get(userId) ?? EMPTY;
  }

  @RpcHandler(EsimRpc.getGiftTotals)
  async totals(): Promise<RpcResponse<typeof EsimRpc.getGiftTotals>> {
    const [row] = await this.db.query(`SELECT COALESCE(SUM(amount_gb), 0)::int AS total FROM data_gifts WHERE status = 'delivered'`);
    return { totalDataGiftedGB: row.total };
  }

  /** The same for a page of the admin user table, in one query. */
  @RpcHandler(EsimRpc.getGiftSummaries)
  async summaries({ userIds }: RpcRequest<typeof EsimRpc.getGiftSummaries>): Promise<RpcResponse<typeof EsimRpc.getGiftSummaries>> {
    const found = await this.summariesOf(userIds);
    return { summaries: userIds.map((userId) => ({ userId, ...(found.get(userId) ?? EMPTY) })) };
  }

  private async summariesOf(userIds: string[]): Promise<Map<string, GiftSummary>> {
    const rows: SummaryRow[] = await this.db.query(
      `SELECT user_id,
              COALESCE(SUM(amount_gb), 0)::int AS total,
              (array_agg(iccid ORDER BY delivered_at DESC))[1] AS iccid,
              (array_agg(plan_tier ORDER BY delivered_at DESC))[1] AS plan_tier,
              MAX(delivered_at) AS last_at
         FROM data_gifts WHERE user_id = ANY($1) AND status = 'delivered'
        GROUP BY user_id`,
      [userIds],
    );
    return new Map(
      rows.map((row) => [
        row.user_id,
        {
          dataGiftedGB: row.total,
          iccid: row.iccid,
          planTierLastChosen: row.plan_tier,
          lastGiftedAt: row.last_at ? new Date(row.last_at).toISOString() : null,
        },
      ]),
    );
  }
}
