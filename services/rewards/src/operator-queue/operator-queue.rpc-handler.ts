import { Controller } from '@nestjs/common';
import { RewardsAdminRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { StuckRedemptions } from './stuck-redemptions';

/** Rewards' part of the operator queue; the gateway's AdminGuard stands before it, the admin travels as meta.userId. */
@Controller()
export class OperatorQueueRpcHandler {
  constructor(private readonly stuck: StuckRedemptions) {}

  @RpcHandler(RewardsAdminRpc.listStuckRedemptions)
  async list({ limit, stuckAfterSeconds }: RpcRequest<typeof RewardsAdminRpc.listStuckRedemptions>): Promise<RpcResponse<typeof RewardsAdminRpc.listStuckRedemptions>> {
    return { items: await this.stuck.list(limit, stuckAfterSeconds) };
  }

  @RpcHandler(RewardsAdminRpc.getRedemptionFacts)
  facts({ redemptionId }: RpcRequest<typeof RewardsAdminRpc.getRedemptionFacts>): Promise<RpcResponse<typeof RewardsAdminRpc.getRedemptionFacts>> {
    return this.stuck.facts(redemptionId);
  }

  @RpcHandler(RewardsAdminRpc.retryRedemption)
  retry({ redemptionId }: RpcRequest<typeof RewardsAdminRpc.retryRedemption>, meta: RpcMeta): Promise<RpcResponse<typeof RewardsAdminRpc.retryRedemption>> {
    return this.stuck.retry(redemptionId, actingUserId(meta));
  }
}
