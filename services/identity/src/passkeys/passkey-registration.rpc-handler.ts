import { Controller } from '@nestjs/common';
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { PasskeyRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, AppError, isUniqueViolation, RpcHandler, UnitOfWork } from '@esim/platform';
import { Users } from '../users/users';
import { passkeyRefused, Passkeys } from './passkeys';
import { RelyingParty } from './relying-party';

/**
 * Adding a passkey: creation options for the acting user (the passkeys they have are excluded,
 * a discoverable credential with user verification is asked for), then the browser's answer,
 * verified against the challenge the gateway kept.
 */
@Controller()
export class PasskeyRegistrationRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly passkeys: Passkeys,
    private readonly rp: RelyingParty,
  ) {}

  @RpcHandler(PasskeyRpc.registrationOptions)
  async options(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof PasskeyRpc.registrationOptions>> {
    const user = await this.users.require(actingUserId(meta));
    const existing = await this.passkeys.forUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: user.email,
      userDisplayName: user.name,
      // The account id, not personal data: it is what the authenticator stores as the user handle.
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { options: options as unknown as Record<string, unknown>, challenge: options.challenge };
  }

  @RpcHandler(PasskeyRpc.register)
  async register({ response, expectedChallenge, name }: RpcRequest<typeof PasskeyRpc.register>, meta: RpcMeta): Promise<RpcResponse<typeof PasskeyRpc.register>> {
    const userId = actingUserId(meta);
    await this.users.require(userId);
    const verification = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      requireUserVerification: true,
    }).catch(() => ({ verified: false as const }));
    if (!verification.verified) throw passkeyRefused('adding');
    const { credential } = verification.registrationInfo;
    try {
      return await this.uow.run((tx) =>
        this.passkeys.insert(tx.manager, { userId, credential, name: name ?? this.passkeys.defaultName(response.authenticatorAttachment) }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('passkey_exists', 'This passkey is already registered');
      throw err;
    }
  }
}
