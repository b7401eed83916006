import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-local';
import { IdentityRpc, IdentityUser } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { clientNetwork } from '../rate-limits/client-network';
import { deviceIdOf } from './device-id';
import { Hit, RateLimits } from '../rate-limits/rate-limits';

/**
 * passport's `local` strategy: email (sent as `username`) and password, checked by identity.
 * Attempts count in two independent buckets, per account and per client network, before the check
 * so parallel guesses cannot slip past the limit; either one spent answers the same generic 429.
 * A success clears the account's count and gives the network its attempt back, except when the
 * account has two-factor sign-in on: then only a right code (TwoFactorSignInController) does. Identity answers
 * an unknown email and a wrong password alike, in comparable time.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(
    private readonly rpc: RpcClient,
    private readonly limits: RateLimits,
  ) {
    super({ usernameField: 'username', passwordField: 'password', passReqToCallback: true, session: false });
  }

  async validate(req: Request, username: string, password: string): Promise<IdentityUser & Express.User> {
    const account: Hit = ['loginAccount', username];
    const network: Hit = ['loginIp', clientNetwork(req)];
    await this.limits.consume(req, network, account);
    const { user, twoFactorRequired } = await this.rpc.call(IdentityRpc.login, { email: username, password, deviceId: deviceIdOf(req), network: clientNetwork(req) });
    if (twoFactorRequired) return { ...user, twoFactorRequired };
    await Promise.all([this.limits.reset(account), this.limits.refund(network)]);
    return user;
  }
}
