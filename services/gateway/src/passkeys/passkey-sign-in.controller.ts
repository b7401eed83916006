import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { PasskeyRpc, PasskeySignInRequest, passkeySignInRequestSchema, UserView } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { UserViewService } from '../auth/user-view.service';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { Hit, RateLimits } from '../rate-limits/rate-limits';
import { SessionService } from '../sessions/session.service';
import { keepChallenge, takeChallenge } from './webauthn-challenge';

const refused = () => new AppError('passkey_sign_in_refused', 'The passkey could not be verified');

/**
 * Signing in with a passkey: a verified answer with user verification is both factors, so it
 * signs in at once, on a fresh session id, even with two-factor sign-in on. Attempts count in the
 * network's login bucket (the account is not known before the answer verifies).
 */
@Controller('api/login/passkey')
export class PasskeySignInController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly limits: RateLimits,
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
  ) {}

  @Post('options')
  @HttpCode(200)
  async options(@Req() req: Request): Promise<Record<string, unknown>> {
    const { options, challenge } = await this.rpc.call(PasskeyRpc.authenticationOptions, {});
    keepChallenge(req, 'sign_in', challenge);
    return options;
  }

  @Post()
  @HttpCode(200)
  async signIn(@Req() req: Request, @Body(new ZodPipe(passkeySignInRequestSchema)) { response }: PasskeySignInRequest): Promise<UserView> {
    const network: Hit = ['loginIp', clientNetwork(req)];
    await this.limits.consume(req, network);
    const expectedChallenge = takeChallenge(req, 'sign_in', refused);
    const { user } = await this.rpc.call(PasskeyRpc.authenticate, { response, expectedChallenge });
    await this.limits.refund(network);
    await this.sessions.signIn(req, { id: user.id });
    return this.users.forUser(user.id);
  }
}
