import { Controller } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { IdentityRpc, PasswordChanged, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { PasswordHasher } from '../credentials/password-hasher';
import { User } from '../users/user.entity';
import { Users } from '../users/users';
import { PasswordResetToken } from './password-reset-token.entity';
import { hashResetToken } from './reset-tokens';

const invalidLinkError = () => new AppError('invalid_reset_token', 'Invalid or expired reset link');

/** Spends a reset token (once, within its hour) on a new password; the gateway then ends every session. */
@Controller()
export class ResetPasswordRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(IdentityRpc.resetPassword)
  async reset({
    token,
    newPassword,
  }: RpcRequest<typeof IdentityRpc.resetPassword>): Promise<RpcResponse<typeof IdentityRpc.resetPassword>> {
    const userId = await this.uow.run(async (tx) => {
      const tokens = tx.manager.getRepository(PasswordResetToken);
      const row = await tokens.findOne({
        where: { tokenHash: hashResetToken(token), used: false, expiresAt: MoreThan(new Date()) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) throw invalidLinkError();
      const user = await this.users.require(row.userId, tx.manager, { lock: true });
      await tokens.update({ userId: user.id, used: false }, { used: true });
      const changedAt = new Date();
      await tx.manager
        .getRepository(User)
        .update(user.id, { passwordHash: await this.hasher.hash(newPassword), passwordChangedAt: changedAt });
      tx.publish(PasswordChanged, {
        userId: user.id,
        email: user.email,
        locale: user.locale,
        via: 'reset',
        changedAt: changedAt.toISOString(),
      });
      return user.id;
    });
    this.audit.record('password_reset', { userId });
    return { userId };
  }
}
