import { Controller } from '@nestjs/common';
import { RewardsAdminRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { PointsRank } from './points-rank';

/** The admin user table ordered by points: rewards pages the users, the gateway adds who they are. */
@Controller()
export class PointsRankRpcHandler {
  constructor(private readonly rank: PointsRank) {}

  @RpcHandler(RewardsAdminRpc.rankByPoints)
  rankByPoints(req: RpcRequest<typeof RewardsAdminRpc.rankByPoints>): Promise<RpcResponse<typeof RewardsAdminRpc.rankByPoints>> {
    return this.rank.page(RewardsAdminRpc.rankByPoints.request.parse(req));
  }
}
