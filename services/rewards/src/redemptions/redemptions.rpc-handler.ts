import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedemptionRpc, RedemptionView, RpcMeta, RpcRequest } from '@esim/contracts';
import { AppError, RpcHandler } from '@esim/platform';
import { Redemptions } from './redemptions';

const actingUser = (meta: RpcMeta): string => {
  if (!meta.userId) throw new AppError('unauthorized', 'Please sign in to continue.');
  return meta.userId;
};

/** Spending points on a plan, and reading one's redemptions back (the gateway waits on them). */
@Controller()
export class RedemptionsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly redemptions: Redemptions,
  ) {}

  @RpcHandler(RedemptionRpc.redeemPoints)
  redeem(command: RpcRequest<typeof RedemptionRpc.redeemPoints>, meta: RpcMeta): Promise<RedemptionView> {
    return this.redemptions.redeem(actingUser(meta), command);
  }

  @RpcHandler(RedemptionRpc.getRedemption)
  get({ redemptionId }: RpcRequest<typeof RedemptionRpc.getRedemption>, meta: RpcMeta): Promise<RedemptionView> {
    return this.redemptions.view(this.db.manager, actingUser(meta), redemptionId);
  }
}
