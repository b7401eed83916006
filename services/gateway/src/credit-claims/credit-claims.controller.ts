import { Body, Controller, Get, Post, UseGuards } from '@nestjs/common';
import { CreditClaim, CreditClaimRequest, creditClaimRequestSchema, CreditClaimRpc, CreditClaimsResponse, WebhooksRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/**
 * Missing-credit claims of the signed-in user (docs/earning.md, "Missing credit"). The user's id at
 * the wall is the one the product opens the wall with (the webhooks service knows it), never one
 * the browser sends: it is what the wall's support will ask the operator for.
 */
@Controller('api/credit-claims')
@UseGuards(AuthGuard)
export class CreditClaimsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  async file(@Body(new ZodPipe(creditClaimRequestSchema)) body: CreditClaimRequest): Promise<CreditClaim> {
    const { walls } = await this.rpc.call(WebhooksRpc.listOfferwalls, {});
    const wall = walls.find((w) => w.id === body.wall);
    if (!wall) throw new AppError('offerwall_disabled', 'This offer wall is not available.');
    return this.rpc.call(CreditClaimRpc.file, { ...body, wallUserId: wall.uid });
  }

  @Get()
  list(): Promise<CreditClaimsResponse> {
    return this.rpc.call(CreditClaimRpc.list, {});
  }
}
