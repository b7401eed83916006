import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { PointsStatement, PointsStatementQuery, pointsStatementQuerySchema, RedemptionRpc, STATEMENT_PAGE_DEFAULT } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/** /history's points statement: every ledger movement of the signed-in user (the RPC's acting user), newest first, paged by cursor. */
@Controller('api')
@UseGuards(AuthGuard)
export class PointsStatementController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('points-statement')
  statement(@Query(new ZodPipe(pointsStatementQuerySchema)) query: PointsStatementQuery): Promise<PointsStatement> {
    return this.rpc.call(RedemptionRpc.getPointsStatement, { before: query.before, limit: query.limit ?? STATEMENT_PAGE_DEFAULT });
  }
}
