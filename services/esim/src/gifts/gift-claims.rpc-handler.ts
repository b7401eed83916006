import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, RedeemablePlanTier, RedemptionView, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler } from '@esim/platform';
import { GiftClaims } from './gift-claims';

const actingUser = (meta: RpcMeta): string => {
  if (!meta.userId) throw new AppError('unauthorized', 'Please sign in to continue.');
  return meta.userId;
};

/** Granting admin gifts, listing the unclaimed ones, and claiming them. */
@Controller()
export class GiftClaimsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly gifts: GiftClaims,
  ) {}

  @RpcHandler(EsimRpc.grantGift)
  async grant({ userId, planTier, grantedBy }: RpcRequest<typeof EsimRpc.grantGift>): Promise<RpcResponse<typeof EsimRpc.grantGift>> {
    const gift = await this.gifts.grant(userId, planTier, grantedBy);
    return {
      giftId: gift.id,
      userId,
      amountGB: gift.amountGB,
      planTier: gift.planTier as RedeemablePlanTier,
      status: 'granted',
      grantedAt: gift.createdAt.toISOString(),
    };
  }

  @RpcHandler(EsimRpc.listPendingGifts)
  async pending({ userId }: RpcRequest<typeof EsimRpc.listPendingGifts>): Promise<RpcResponse<typeof EsimRpc.listPendingGifts>> {
    const gifts = await this.gifts.pending(this.db.manager, userId);
    return {
      pendingGifts: gifts.map((g) => ({ giftId: g.id, amountGB: g.amountGB, planTier: g.planTier as RedeemablePlanTier, grantedAt: g.createdAt.toISOString() })),
    };
  }

  @RpcHandler(EsimRpc.claimGift)
  claim(command: RpcRequest<typeof EsimRpc.claimGift>, meta: RpcMeta): Promise<RedemptionView> {
    return this.gifts.claim(actingUser(meta), command);
  }

  @RpcHandler(EsimRpc.getGiftClaim)
  get({ redemptionId }: RpcRequest<typeof EsimRpc.getGiftClaim>, meta: RpcMeta): Promise<RedemptionView> {
    return this.gifts.view(this.db.manager, actingUser(meta), redemptionId);
  }
}
