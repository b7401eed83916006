import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, RedeemablePlanTier, RedemptionView, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { AdminGiftTallies } from './admin-gift-tallies';
import { GiftClaims } from './gift-claims';

/** Granting admin gifts, listing the unclaimed ones, and claiming them. */
@Controller()
export class GiftClaimsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly gifts: GiftClaims,
    private readonly tallies: AdminGiftTallies,
  ) {}

  /** The acting user is the admin granting (recorded as the gift's granter); `recipientId` gets the gift. */
  @RpcHandler(EsimRpc.grantGift)
  async grant({ recipientId, planTier }: RpcRequest<typeof EsimRpc.grantGift>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.grantGift>> {
    const gift = await this.gifts.grant(recipientId, planTier, actingUserId(meta));
    return {
      giftId: gift.id,
      userId: recipientId,
      amountGB: gift.amountGB,
      planTier: gift.planTier as RedeemablePlanTier,
      status: 'granted',
      grantedAt: gift.createdAt.toISOString(),
    };
  }

  @RpcHandler(EsimRpc.listPendingGifts)
  async pending(_: RpcRequest<typeof EsimRpc.listPendingGifts>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.listPendingGifts>> {
    const gifts = await this.gifts.pending(this.db.manager, actingUserId(meta));
    return {
      pendingGifts: gifts.map((g) => ({ giftId: g.id, amountGB: g.amountGB, planTier: g.planTier as RedeemablePlanTier, grantedAt: g.createdAt.toISOString() })),
    };
  }

  @RpcHandler(EsimRpc.listAdminGifts)
  async history(_: RpcRequest<typeof EsimRpc.listAdminGifts>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.listAdminGifts>> {
    return { gifts: await this.tallies.records(this.db.manager, actingUserId(meta)) };
  }

  @RpcHandler(EsimRpc.claimGift)
  claim(command: RpcRequest<typeof EsimRpc.claimGift>, meta: RpcMeta): Promise<RedemptionView> {
    return this.gifts.claim(actingUserId(meta), command);
  }

  @RpcHandler(EsimRpc.getGiftClaim)
  get({ redemptionId }: RpcRequest<typeof EsimRpc.getGiftClaim>, meta: RpcMeta): Promise<RedemptionView> {
    return this.gifts.view(this.db.manager, actingUserId(meta), redemptionId);
  }
}
