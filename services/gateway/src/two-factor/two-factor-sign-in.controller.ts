import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { TwoFactorCodeRequest, twoFactorCodeRequestSchema, TwoFactorRpc, UserView } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { UserViewService } from '../auth/user-view.service';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { Hit, RateLimits } from '../rate-limits/rate-limits';
import { SessionService } from '../sessions/session.service';

/**
 * `POST /api/login/2fa`: the second step of a sign-in whose password was right. Each code counts
 * in the same two buckets as a password (per account, per network), so guessing codes costs what
 * guessing passwords does; only a right code clears them and signs in, on a fresh session id.
 */
@Controller('api/login')
export class TwoFactorSignInController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly limits: RateLimits,
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
  ) {}

  @Post('2fa')
  @HttpCode(200)
  async verify(@Req() req: Request, @Body(new ZodPipe(twoFactorCodeRequestSchema)) { code }: TwoFactorCodeRequest): Promise<UserView> {
    const pending = req.session.twoFactor;
    if (!pending || pending.until < Date.now()) {
      throw new AppError('two_factor_not_pending', 'Sign in with your password again');
    }
    const account: Hit = ['loginAccount', pending.email];
    const network: Hit = ['loginIp', clientNetwork(req)];
    await this.limits.consume(req, network, account);
    const { user } = await this.rpc.call(TwoFactorRpc.verifySignIn, { signingInUserId: pending.userId, code });
    await Promise.all([this.limits.reset(account), this.limits.refund(network)]);
    await this.sessions.signIn(req, { id: user.id });
    return this.users.forUser(user.id);
  }
}
