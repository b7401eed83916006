import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  ForgotPasswordRequest,
  forgotPasswordRequestSchema,
  IdentityRpc,
  ResetPasswordRequest,
  resetPasswordRequestSchema,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';
import { signedInUserId } from '../sessions/auth.guard';
import { SessionService } from '../sessions/session.service';

/** Forgot password (same answer for every email) and reset by emailed link (ends every session). */
@Controller('api')
export class PasswordResetController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
    private readonly limits: RateLimits,
  ) {}

  @Post('forgot-password')
  @HttpCode(200)
  async forgot(@Req() req: Request, @Body(new ZodPipe(forgotPasswordRequestSchema)) body: ForgotPasswordRequest) {
    await this.limits.consume(req, ['forgotIp', clientNetwork(req)], ['forgotEmail', body.email]);
    // Identity answers after the same work for every address; the email goes out later, in the
    // language stored with the account (not the requester's).
    await this.rpc.call(IdentityRpc.forgotPassword, { email: body.email });
    return { message: 'If an account exists for this email, we sent a link to reset your password.' };
  }

  @Post('reset-password')
  @HttpCode(200)
  async reset(@Req() req: Request, @Body(new ZodPipe(resetPasswordRequestSchema)) body: ResetPasswordRequest) {
    const { userId } = await this.rpc.call(IdentityRpc.resetPassword, body);
    // At once for this answer; PasswordChanged ends them too when this answer never comes (a timeout).
    if (signedInUserId(req) === userId) await this.sessions.signOut(req);
    await this.sessions.endAllSessions(userId);
    return { message: 'Your password has been reset. You can now sign in.' };
  }
}
