import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import { AutoTopup, AutoTopupRpc, AutoTopupSettings, autoTopupSettingsSchema, iccidSchema } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/** "When below X MB, top up 1 GB with my points" on one of the user's lines (docs/wallet.md). The acting user travels in meta. */
@Controller('api/esim-lines')
@UseGuards(AuthGuard)
export class AutoTopupController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':iccid/auto-topup')
  get(@Param('iccid', new ZodPipe(iccidSchema)) iccid: string): Promise<AutoTopup> {
    return this.rpc.call(AutoTopupRpc.get, { iccid });
  }

  @Put(':iccid/auto-topup')
  set(@Param('iccid', new ZodPipe(iccidSchema)) iccid: string, @Body(new ZodPipe(autoTopupSettingsSchema)) body: AutoTopupSettings): Promise<AutoTopup> {
    return this.rpc.call(AutoTopupRpc.set, { iccid, ...body });
  }
}
