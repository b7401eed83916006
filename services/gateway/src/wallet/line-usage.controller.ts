import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { EsimWalletRpc, iccidSchema, LineUsage, lineUsageQuerySchema } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/** My eSIMs: what is left on one of the user's lines (docs/wallet.md). The acting user travels in meta. */
@Controller('api/esim-lines')
@UseGuards(AuthGuard)
export class LineUsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':iccid/usage')
  usage(
    @Param('iccid', new ZodPipe(iccidSchema)) iccid: string,
    @Query(new ZodPipe(lineUsageQuerySchema)) query: { refresh: boolean },
  ): Promise<LineUsage> {
    return this.rpc.call(EsimWalletRpc.getLineUsage, { iccid, refresh: query.refresh });
  }
}
