import { Controller, Inject } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { DEFAULT_USER_SETTINGS, IdentityRpc, RpcRequest, RpcResponse, SignupReferral, UserRegistered } from '@esim/contracts';
import { CONFIG, RpcHandler, UnitOfWork } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { PasswordHasher } from '../credentials/password-hasher';
import { DeviceSignals } from '../referrals/device-signals';
import { LiveUser, User } from '../users/user.entity';
import { isUniqueViolation, toIdentityUser } from '../users/users';
import { invalidCodeError, tooManyAttemptsError, VerificationCodes } from './verification-codes';

/** Step two of sign-up: a valid code creates the account (the gateway then signs it in). */
@Controller()
export class VerifyEmailRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly codes: VerificationCodes,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly devices: DeviceSignals,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  @RpcHandler(IdentityRpc.verifyEmail)
  async verify({
    email,
    code,
    password,
    name,
    locale,
    referralCode,
    deviceId,
    network,
  }: RpcRequest<typeof IdentityRpc.verifyEmail>): Promise<RpcResponse<typeof IdentityRpc.verifyEmail>> {
    // A wrong code's attempt must be committed, so the outcome is returned and thrown afterwards.
    const outcome = await this.uow
      .run(async (tx) => {
        const check = await this.codes.check(tx.manager, { purpose: 'signup', email }, code);
        if (check.result !== 'ok') return check.result;
        // Hashed only after the code proved right: wrong guesses cost no argon2 work.
        const user = (await tx.manager.getRepository(User).save(
          tx.manager.getRepository(User).create({
            email,
            name,
            locale,
            passwordHash: await this.hasher.hash(password),
            passwordChangedAt: new Date(),
            emailVerified: true,
            settings: DEFAULT_USER_SETTINGS,
            isAdmin: this.config.ADMIN_EMAILS.includes(email),
          }),
        )) as LiveUser;
        await this.devices.record(tx.manager, user.id, deviceId);
        await this.devices.recordNetwork(tx.manager, user.id, network);
        const referral = referralCode ? await this.referralOf(tx.manager, user, referralCode, deviceId) : undefined;
        tx.publish(UserRegistered, { userId: user.id, email, name, locale, registeredAt: user.createdAt.toISOString(), referral });
        // The fraud signals of the new account and of any account its device links (the risk rules).
        await this.devices.announceWithLinked(tx, user.id);
        return user;
      })
      .catch((err: unknown) => {
        // The address became an account meanwhile (an email change won the race): nothing was created.
        if (isUniqueViolation(err)) return 'invalid' as const;
        throw err;
      });
    if (outcome === 'capped') throw tooManyAttemptsError();
    if (outcome === 'invalid') throw invalidCodeError();
    this.audit.record('account_created', { userId: outcome.id });
    if (outcome.isAdmin) this.audit.record('admin_granted', { userId: outcome.id, by: 'ADMIN_EMAILS' });
    return { user: toIdentityUser(outcome) };
  }

  /**
   * The inviter of a sign-up with a code (an unknown code, or a deleted inviter's, refers nobody:
   * the sign-up goes on). The referral is void when the friend signs up on a device the inviter
   * has used (docs/earning.md, "Referrals").
   */
  private async referralOf(m: EntityManager, user: LiveUser, code: string, deviceId: string | undefined): Promise<SignupReferral | undefined> {
    const inviter = await m.getRepository(User).findOne({ where: { referralCode: code, deletedAt: IsNull() }, select: { id: true } });
    if (!inviter || inviter.id === user.id) return undefined;
    await m.getRepository(User).update({ id: user.id }, { referredBy: inviter.id });
    const sameDevice = deviceId !== undefined && (await this.devices.used(m, inviter.id, deviceId));
    return { inviterId: inviter.id, voidReason: sameDevice ? 'same_device' : null };
  }
}
