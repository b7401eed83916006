import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PointsStatement, RedemptionRpc, RpcRequest } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { PointsStatements } from './points-statement';

@Controller()
export class PointsStatementRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly statements: PointsStatements,
  ) {}

  @RpcHandler(RedemptionRpc.getPointsStatement)
  statement({ userId, before, limit }: RpcRequest<typeof RedemptionRpc.getPointsStatement>): Promise<PointsStatement> {
    return this.statements.page(this.db.manager, userId, { before, limit: limit ?? 50 });
  }
}
