import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, GiftSummary, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { AdminGiftTallies, EMPTY_ADMIN_GIFT_TALLY } from './admin-gift-tallies';
import { EMPTY_GIFT_SUMMARY, GiftSummaryAnnouncements } from './gift-summary-announcements';

@Controller()
export class GiftSummaryRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly gifts: GiftSummaryAnnouncements,
    private readonly tallies: AdminGiftTallies,
  ) {}

  /** The acting user's totals of delivered gifts and the last one, as the user row shows them. */
  @RpcHandler(EsimRpc.getGiftSummary)
  async summary(_: RpcRequest<typeof EsimRpc.getGiftSummary>, meta: RpcMeta): Promise<GiftSummary> {
    const userId = actingUserId(meta);
    return (await this.gifts.read(this.db.manager, [userId])).get(userId)?.summary ?? EMPTY_GIFT_SUMMARY;
  }

  /** The same with GiftSummaryChanged's version, read in one snapshot (the gateway's user view rebuilds from it). */
  @RpcHandler(EsimRpc.getVersionedGiftSummary)
  async versionedSummary(_: RpcRequest<typeof EsimRpc.getVersionedGiftSummary>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.getVersionedGiftSummary>> {
    const userId = actingUserId(meta);
    return (await this.gifts.read(this.db.manager, [userId])).get(userId) ?? { summary: EMPTY_GIFT_SUMMARY, version: 0 };
  }

  @RpcHandler(EsimRpc.getGiftTotals)
  async totals(): Promise<RpcResponse<typeof EsimRpc.getGiftTotals>> {
    const [[row], tally] = await Promise.all([
      this.db.query(`SELECT COALESCE(SUM(amount_gb), 0)::int AS total FROM data_gifts WHERE status = 'delivered'`),
      this.tallies.overall(this.db.manager),
    ]);
    return { totalDataGiftedGB: row.total, ...tally };
  }

  /** The same for a page of the admin user table, in one query. */
  @RpcHandler(EsimRpc.getGiftSummaries)
  async summaries({ userIds }: RpcRequest<typeof EsimRpc.getGiftSummaries>): Promise<RpcResponse<typeof EsimRpc.getGiftSummaries>> {
    const [found, tallies] = await Promise.all([this.gifts.read(this.db.manager, userIds), this.tallies.forUsers(this.db.manager, userIds)]);
    return {
      summaries: userIds.map((userId) => ({ userId, ...(found.get(userId)?.summary ?? EMPTY_GIFT_SUMMARY), ...(tallies.get(userId) ?? EMPTY_ADMIN_GIFT_TALLY) })),
    };
  }
}
