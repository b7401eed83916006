import { Controller, Inject } from '@nestjs/common';
import { DEFAULT_USER_SETTINGS, IdentityRpc, RpcRequest, RpcResponse, UserRegistered } from '@esim/contracts';
import { CONFIG, RpcHandler, UnitOfWork } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { PasswordHasher } from '../credentials/password-hasher';
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
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  @RpcHandler(IdentityRpc.verifyEmail)
  async verify({
    email,
    code,
    password,
    name,
    locale,
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
        tx.publish(UserRegistered, { userId: user.id, email, name, locale, registeredAt: user.createdAt.toISOString() });
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
}
