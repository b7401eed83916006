import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  TwoFactorCodeRequest,
  twoFactorCodeRequestSchema,
  TwoFactorEnableResponse,
  TwoFactorRpc,
  TwoFactorSetupResponse,
  UserView,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { UserViewService } from '../auth/user-view.service';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';

/** Turning two-factor sign-in on and off (identity owns the secret and the recovery codes). */
@Controller('api/user/2fa')
@UseGuards(AuthGuard)
export class TwoFactorEnrolmentController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly users: UserViewService,
  ) {}

  @Post('setup')
  @HttpCode(200)
  setup(): Promise<TwoFactorSetupResponse> {
    return this.rpc.call(TwoFactorRpc.setup, {});
  }

  @Post('enable')
  @HttpCode(200)
  async enable(
    @CurrentUserId() userId: string,
    @Body(new ZodPipe(twoFactorCodeRequestSchema)) { code }: TwoFactorCodeRequest,
  ): Promise<TwoFactorEnableResponse> {
    const { recoveryCodes } = await this.rpc.call(TwoFactorRpc.enable, { code });
    return { recoveryCodes, user: await this.users.forUser(userId) };
  }

  @Post('disable')
  @HttpCode(200)
  async disable(
    @CurrentUserId() userId: string,
    @Body(new ZodPipe(twoFactorCodeRequestSchema)) { code }: TwoFactorCodeRequest,
  ): Promise<{ user: UserView }> {
    await this.rpc.call(TwoFactorRpc.disable, { code });
    return { user: await this.users.forUser(userId) };
  }
}
