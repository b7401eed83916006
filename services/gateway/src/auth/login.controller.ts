import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityRpc, LoginRequest, loginRequestSchema, UserView } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { clientIp } from '../common/client-ip';
import { Hit, RateLimits } from '../rate-limits/rate-limits';
import { SessionService } from '../sessions/session.service';
import { UserViewService } from './user-view.service';

/**
 * Email + password sign-in on a fresh session id. Attempts count in two independent buckets, per
 * account and per client IP; either one spent answers the same generic 429.
 */
@Controller('api')
export class LoginController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
    private readonly limits: RateLimits,
  ) {}

  @Post('login')
  @HttpCode(200)
  async login(@Req() req: Request, @Body(new ZodPipe(loginRequestSchema)) body: LoginRequest): Promise<UserView> {
    const account: Hit = ['loginAccount', body.username];
    const ip: Hit = ['loginIp', clientIp(req)];
    // Counted before the check, so parallel guesses cannot slip past the limit; a success gives them back.
    await this.limits.consume(req, ip, account);
    const { user } = await this.rpc.call(IdentityRpc.login, { email: body.username, password: body.password });
    await Promise.all([this.limits.reset(account), this.limits.refund(ip)]);
    await this.sessions.signIn(req, user.id);
    return this.users.forUser(user.id);
  }
}
