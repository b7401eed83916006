import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { PointsStatement, PointsStatementQuery, pointsStatementQuerySchema, RedemptionRpc, STATEMENT_PAGE_DEFAULT } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';

/** /history's points statement: every ledger movement of the user, newest first, paged by cursor. */
@Controller('api')
@UseGuards(AuthGuard)
export class PointsStatementController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('points-statement')
  statement(@CurrentUserId() userId: string, @Query(new ZodPipe(pointsStatementQuerySchema)) query: PointsStatementQuery): Promise<PointsStatement> {
    return this.rpc.call(RedemptionRpc.getPointsStatement, { userId, before: query.before, limit: query.limit ?? STATEMENT_PAGE_DEFAULT });
  }
}
