import { Controller } from '@nestjs/common';
import { RedemptionRiskAdminRpc, RedemptionRiskRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { Redemptions } from '../redemptions/redemptions';
import { RedemptionRisk } from './redemption-risk.service';

/** The acting user's standing and appeal; the admins' queue and decisions (admin RPCs: the RPC server checks the caller). */
@Controller()
export class RedemptionRiskRpcHandler {
  constructor(
    private readonly risk: RedemptionRisk,
    private readonly redemptions: Redemptions,
  ) {}

  @RpcHandler(RedemptionRiskRpc.standing)
  standing(_: RpcRequest<typeof RedemptionRiskRpc.standing>, meta: RpcMeta): Promise<RpcResponse<typeof RedemptionRiskRpc.standing>> {
    return this.risk.standingOf(actingUserId(meta));
  }

  @RpcHandler(RedemptionRiskRpc.appeal)
  appeal({ message }: RpcRequest<typeof RedemptionRiskRpc.appeal>, meta: RpcMeta): Promise<RpcResponse<typeof RedemptionRiskRpc.appeal>> {
    return this.risk.appeal(actingUserId(meta), message);
  }

  @RpcHandler(RedemptionRiskAdminRpc.queue)
  queue({ limit }: RpcRequest<typeof RedemptionRiskAdminRpc.queue>): Promise<RpcResponse<typeof RedemptionRiskAdminRpc.queue>> {
    return this.risk.queue(limit);
  }

  @RpcHandler(RedemptionRiskAdminRpc.decideReview)
  decideReview({ redemptionId, decision, reason }: RpcRequest<typeof RedemptionRiskAdminRpc.decideReview>, meta: RpcMeta): Promise<RpcResponse<typeof RedemptionRiskAdminRpc.decideReview>> {
    return this.redemptions.reviewed(redemptionId, actingUserId(meta), { decision, reason });
  }

  @RpcHandler(RedemptionRiskAdminRpc.controlAccounts)
  async control({ userIds, action, reason }: RpcRequest<typeof RedemptionRiskAdminRpc.controlAccounts>, meta: RpcMeta): Promise<RpcResponse<typeof RedemptionRiskAdminRpc.controlAccounts>> {
    return { accounts: await this.risk.control(userIds, actingUserId(meta), action, reason) };
  }

  @RpcHandler(RedemptionRiskAdminRpc.standings)
  async standings({ userIds }: RpcRequest<typeof RedemptionRiskAdminRpc.standings>): Promise<RpcResponse<typeof RedemptionRiskAdminRpc.standings>> {
    return { accounts: await this.risk.standings(userIds) };
  }
}
