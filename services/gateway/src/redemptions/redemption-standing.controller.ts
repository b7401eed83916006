import { Body, Controller, Get, Post, UseGuards } from '@nestjs/common';
import { RedemptionAppeal, RedemptionAppealRequest, redemptionAppealRequestSchema, RedemptionRiskRpc, RedemptionStanding } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/**
 * The signed-in user's redemption standing (docs/earning.md, "Risk rules"): open, under review or
 * paused, with the reasons, and the appeal that takes the question to an admin. Never a silent
 * ban: whatever the rules decided, this says it.
 */
@Controller('api/redemption-standing')
@UseGuards(AuthGuard)
export class RedemptionStandingController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  standing(): Promise<RedemptionStanding> {
    return this.rpc.call(RedemptionRiskRpc.standing, {});
  }

  @Post('appeal')
  appeal(@Body(new ZodPipe(redemptionAppealRequestSchema)) body: RedemptionAppealRequest): Promise<RedemptionAppeal> {
    return this.rpc.call(RedemptionRiskRpc.appeal, body);
  }
}
