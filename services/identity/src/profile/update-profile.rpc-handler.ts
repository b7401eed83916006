import { Controller } from '@nestjs/common';
import { EntityManager, IsNull, MoreThan } from 'typeorm';
import {
  ExistingAccountSignupAttempted,
  IdentityRpc,
  PasswordChanged,
  RpcMeta,
  RpcRequest,
  RpcResponse,
  VerificationCodeIssued,
} from '@esim/contracts';
import { actingUserId, AppError, RpcHandler, Tx, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { PasswordHasher } from '../credentials/password-hasher';
import { VerificationCode } from '../registration/verification-code.entity';
import { CODE_TTL_MINUTES, VerificationCodes } from '../registration/verification-codes';
import { LiveUser, User } from '../users/user.entity';
import { publishProfileChanged } from '../users/profile-changed';
import { toIdentityUser, Users } from '../users/users';

type UpdateProfile = RpcRequest<typeof IdentityRpc.updateProfile>;

/**
 * Name and phone change at once. A new password, or a new email, needs the current password. A
 * new email is only a pending change until the code sent to it is confirmed
 * (confirm-email-change.rpc-handler.ts); if the address already has an account, its owner is told
 * instead and no code goes out, with the same answer. Everything or nothing is saved.
 */
@Controller()
export class UpdateProfileRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: VerificationCodes,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(IdentityRpc.updateProfile)
  async update(data: UpdateProfile, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.updateProfile>> {
    const userId = actingUserId(meta);
    const result = await this.uow.run(async (tx) => {
      const user = await this.users.require(userId, tx.manager, { lock: true });
      const newEmail = data.email !== undefined && data.email !== user.email ? data.email : undefined;
      if (newEmail !== undefined || data.newPassword !== undefined) await this.checkCurrentPassword(user, data.currentPassword);

      if (data.name !== undefined) user.name = data.name;
      if (data.phone !== undefined) user.phone = data.phone;
      const passwordChanged = data.newPassword !== undefined;
      if (data.newPassword !== undefined) {
        user.passwordHash = await this.hasher.hash(data.newPassword);
        user.passwordChangedAt = new Date();
        tx.publish(PasswordChanged, {
          userId,
          email: user.email,
          locale: user.locale,
          via: 'change',
          changedAt: user.passwordChangedAt.toISOString(),
          // The session that made the change stays signed in; the gateway ends the others on this event.
          sessionRef: data.sessionRef,
        });
      }
      const saved = (await tx.manager.getRepository(User).save(user)) as LiveUser;
      publishProfileChanged(tx, saved);
      if (newEmail !== undefined) await this.requestEmailChange(tx, saved, newEmail);
      return { user: saved, passwordChanged, pendingEmail: await this.pendingEmail(tx.manager, userId) };
    });
    if (result.passwordChanged) this.audit.record('password_changed', { userId });
    if (data.email !== undefined && result.pendingEmail === data.email) this.audit.record('email_change_requested', { userId });
    return { user: toIdentityUser(result.user), pendingEmail: result.pendingEmail, passwordChanged: result.passwordChanged };
  }

  private async checkCurrentPassword(user: LiveUser, currentPassword: string | undefined): Promise<void> {
    if (!currentPassword) {
      throw new AppError('current_password_required', 'Enter your current password to change your email or password');
    }
    if (!(await this.hasher.verify(user.passwordHash, currentPassword))) {
      throw new AppError('wrong_password', 'Current password is incorrect');
    }
  }

  private async requestEmailChange(tx: Tx, user: LiveUser, email: string): Promise<void> {
    // Issued even for a taken address (nobody receives it), so the pending change reads the same either way.
    const code = await this.codes.issue(tx.manager, { purpose: 'email_change', userId: user.id }, email);
    const owner = await this.users.findByEmail(email, tx.manager);
    if (owner) tx.publish(ExistingAccountSignupAttempted, { userId: owner.id, email: owner.email, locale: owner.locale });
    else if (code)
      tx.publish(VerificationCodeIssued, { email, code, name: user.name, locale: user.locale, expiresInMinutes: CODE_TTL_MINUTES });
  }

  /** The address a still-valid email change waits to confirm. */
  private async pendingEmail(m: EntityManager, userId: string): Promise<string | null> {
    const open = await m
      .getRepository(VerificationCode)
      .findOneBy({ purpose: 'email_change', userId, used: false, replacedAt: IsNull(), expiresAt: MoreThan(new Date()) });
    return open?.email ?? null;
  }
}
