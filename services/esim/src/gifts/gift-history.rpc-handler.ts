import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { DataGift } from './data-gift.entity';

/**
 * Every gift of the acting user, whatever became of it, for their data export. The ICCIDs stay out:
 * the user's lines and redemptions answer them, masked where the line is someone else's
 * (docs/decisions.md, "Topping up someone else's eSIM").
 */
@Controller()
export class GiftHistoryRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(EsimRpc.listGifts)
  async list(_: RpcRequest<typeof EsimRpc.listGifts>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.listGifts>> {
    const gifts = await this.db.manager.find(DataGift, { where: { userId: actingUserId(meta) }, order: { createdAt: 'DESC' } });
    return {
      gifts: gifts.map((g) => ({
        giftId: g.id,
        source: g.source,
        status: g.status,
        amountGB: g.amountGB,
        planTier: g.planTier,
        grantedAt: g.createdAt.toISOString(),
        deliveredAt: g.deliveredAt?.toISOString() ?? null,
      })),
    };
  }
}
