import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  IdentityRpc, RegisterRequest, RegisterResponse, registerRequestSchema, ResendVerificationRequest, resendVerificationRequestSchema,
  UserView, VerifyEmailRequest, verifyEmailRequestSchema,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { deviceIdOf } from './device-id';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';
import { SessionService } from '../sessions/session.service';
import { requestLocale } from './request-locale';
import { UserViewService } from './user-view.service';

/** Sign-up: a code by email, then the account is created at verification and the user is signed in. */
@Controller('api')
export class RegistrationController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
    private readonly limits: RateLimits,
  ) {}

  @Post('register')
  @HttpCode(200)
  async register(@Req() req: Request, @Body(new ZodPipe(registerRequestSchema)) body: RegisterRequest): Promise<RegisterResponse> {
    await this.limits.consume(req, ['signupIp', clientNetwork(req)], ['signupEmail', body.email]);
    // The password is not kept here: the client sends it again with the code (docs/accounts.md, Routes).
    const { email } = await this.rpc.call(IdentityRpc.register, { email: body.email, name: body.name, locale: requestLocale(req, body.locale) });
    return { requiresVerification: true, email, message: 'We sent a 6-digit verification code to your email.' };
  }

  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Req() req: Request, @Body(new ZodPipe(verifyEmailRequestSchema)) body: VerifyEmailRequest): Promise<{ user: UserView }> {
    await this.limits.consume(req, ['verifyIp', clientNetwork(req)]);
    const { user } = await this.rpc.call(IdentityRpc.verifyEmail, { ...body, locale: requestLocale(req, body.locale), deviceId: deviceIdOf(req), network: clientNetwork(req) });
    await this.sessions.signIn(req, user);
    // The account exists and is signed in now: the answer must not wait on (or fail with) rewards or esim.
    return { user: UserViewService.newAccount(user) };
  }

  @Post('resend-verification')
  @HttpCode(200)
  async resend(@Req() req: Request, @Body(new ZodPipe(resendVerificationRequestSchema)) body: ResendVerificationRequest) {
    // Per email for every address alike, so the limit says nothing about pending sign-ups.
    await this.limits.consume(req, ['resendIp', clientNetwork(req)], ['resendEmail', body.email]);
    const { email } = await this.rpc.call(IdentityRpc.resendVerification, { email: body.email, locale: requestLocale(req, body.locale) });
    return { email, message: 'Verification code sent' };
  }
}
