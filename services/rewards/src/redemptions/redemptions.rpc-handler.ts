import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedemptionRpc, RedemptionView, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { Redemptions } from './redemptions';

/** Spending points on a plan, and reading one's redemptions back (the gateway waits on them). */
@Controller()
export class RedemptionsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly redemptions: Redemptions,
  ) {}

  @RpcHandler(RedemptionRpc.redeemPoints)
  redeem(command: RpcRequest<typeof RedemptionRpc.redeemPoints>, meta: RpcMeta): Promise<RedemptionView> {
    return this.redemptions.redeem(actingUserId(meta), command);
  }

  @RpcHandler(RedemptionRpc.getRedemption)
  get({ redemptionId }: RpcRequest<typeof RedemptionRpc.getRedemption>, meta: RpcMeta): Promise<RedemptionView> {
    return this.redemptions.view(this.db.manager, actingUserId(meta), redemptionId);
  }

  @RpcHandler(RedemptionRpc.listRedemptions)
  async list(_: RpcRequest<typeof RedemptionRpc.listRedemptions>, meta: RpcMeta): Promise<RpcResponse<typeof RedemptionRpc.listRedemptions>> {
    return { redemptions: await this.redemptions.listFor(this.db.manager, actingUserId(meta)) };
  }
}
