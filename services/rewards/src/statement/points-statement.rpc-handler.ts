import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PointsStatement, RedemptionRpc, RpcMeta, RpcRequest, STATEMENT_PAGE_DEFAULT } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { PointsStatements } from './points-statement';

@Controller()
export class PointsStatementRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly statements: PointsStatements,
  ) {}

  @RpcHandler(RedemptionRpc.getPointsStatement)
  statement({ before, limit }: RpcRequest<typeof RedemptionRpc.getPointsStatement>, meta: RpcMeta): Promise<PointsStatement> {
    return this.statements.page(this.db.manager, actingUserId(meta), { before, limit: limit ?? STATEMENT_PAGE_DEFAULT });
  }
}
