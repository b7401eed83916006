import { Body, Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { PushRpc, pushSubscriptionSchema, pushUnsubscribeSchema, type PushSubscriptionRequest } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/** Web Push for the signed-in user's browsers (docs/wallet.md, "Web Push"); notifications keeps them. */
@Controller('api/push')
@UseGuards(AuthGuard)
export class PushController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('public-key')
  publicKey() {
    return this.rpc.call(PushRpc.getPublicKey, {});
  }

  @Post('subscriptions')
  @HttpCode(200)
  subscribe(@Body(new ZodPipe(pushSubscriptionSchema)) body: PushSubscriptionRequest) {
    return this.rpc.call(PushRpc.subscribe, body);
  }

  @Delete('subscriptions')
  @HttpCode(200)
  unsubscribe(@Body(new ZodPipe(pushUnsubscribeSchema)) body: { endpoint: string }) {
    return this.rpc.call(PushRpc.unsubscribe, body);
  }
}
