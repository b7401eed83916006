import { Controller } from '@nestjs/common';
import { EmailChanged, IdentityRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { PasswordResetToken } from '../password-reset/password-reset-token.entity';
import { invalidCodeError, tooManyAttemptsError, VerificationCodes } from '../registration/verification-codes';
import { LiveUser, User } from '../users/user.entity';
import { publishProfileChanged } from '../users/profile-changed';
import { isUniqueViolation, toIdentityUser, Users } from '../users/users';

/** The code sent to the new address proves it; the account's email changes and the old address is told. */
@Controller()
export class ConfirmEmailChangeRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: VerificationCodes,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(IdentityRpc.confirmEmailChange)
  async confirm(
    { code }: RpcRequest<typeof IdentityRpc.confirmEmailChange>,
    meta: RpcMeta,
  ): Promise<RpcResponse<typeof IdentityRpc.confirmEmailChange>> {
    const userId = actingUserId(meta);
    // A wrong code's attempt must be committed, so the outcome is returned and thrown afterwards.
    const outcome = await this.uow
      .run(async (tx) => {
        const user = await this.users.require(userId, tx.manager, { lock: true });
        const check = await this.codes.check(tx.manager, { purpose: 'email_change', userId }, code);
        if (check.result !== 'ok') return check.result;
        const previousEmail = user.email;
        user.email = check.email;
        const saved = (await tx.manager.getRepository(User).save(user)) as LiveUser;
        // Reset links went to the old address; they must not outlive it.
        await tx.manager.getRepository(PasswordResetToken).update({ userId, used: false }, { used: true });
        tx.publish(EmailChanged, {
          userId,
          previousEmail,
          email: check.email,
          locale: user.locale,
          changedAt: saved.updatedAt.toISOString(),
        });
        publishProfileChanged(tx, saved);
        return saved;
      })
      .catch((err: unknown) => {
        // Someone signed up with that address after the code was sent: the change cannot happen.
        if (isUniqueViolation(err)) return 'invalid' as const;
        throw err;
      });
    if (outcome === 'capped') throw tooManyAttemptsError();
    if (outcome === 'invalid') throw invalidCodeError();
    this.audit.record('email_changed', { userId });
    return { user: toIdentityUser(outcome) };
  }
}
