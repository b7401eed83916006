import { Controller } from '@nestjs/common';
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { PasskeyRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { toIdentityUser, Users } from '../users/users';
import { passkeyRefused, Passkeys } from './passkeys';
import { RelyingParty } from './relying-party';

/**
 * Signing in with a passkey. The options name no account (discoverable credentials: the browser
 * offers the passkeys it holds for us); the answer names its credential, whose stored public key
 * must verify it with user verification, so it counts as both factors.
 */
@Controller()
export class PasskeySignInRpcHandler {
  constructor(
    private readonly users: Users,
    private readonly passkeys: Passkeys,
    private readonly rp: RelyingParty,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(PasskeyRpc.authenticationOptions)
  async options(): Promise<RpcResponse<typeof PasskeyRpc.authenticationOptions>> {
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, userVerification: 'required' });
    return { options: options as unknown as Record<string, unknown>, challenge: options.challenge };
  }

  @RpcHandler(PasskeyRpc.authenticate)
  async authenticate({ response, expectedChallenge }: RpcRequest<typeof PasskeyRpc.authenticate>): Promise<RpcResponse<typeof PasskeyRpc.authenticate>> {
    const stored = await this.passkeys.find(response.id);
    if (!stored) throw passkeyRefused('sign-in');
    const verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      credential: stored,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verification?.verified || !(await this.passkeys.used(stored.id, stored.counter, verification.authenticationInfo.newCounter))) {
      this.audit.record('sign_in_failed', { userId: stored.userId, reason: 'passkey_refused' });
      throw passkeyRefused('sign-in');
    }
    const user = await this.users.require(stored.userId).catch(() => {
      throw passkeyRefused('sign-in');
    });
    this.audit.record('sign_in', { userId: user.id, reason: 'passkey' });
    return { user: toIdentityUser(user) };
  }
}
