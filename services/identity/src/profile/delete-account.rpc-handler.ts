import { Controller } from '@nestjs/common';
import { AccountDeleted, DEFAULT_USER_SETTINGS, IdentityRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, OutboxErasure, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { PasswordResetToken } from '../password-reset/password-reset-token.entity';
import { DeviceSignals } from '../referrals/device-signals';
import { VerificationCodes } from '../registration/verification-codes';
import { User } from '../users/user.entity';
import { Users } from '../users/users';

/** The email of an erased account: unique, undeliverable, and frees the real address for a new sign-up. */
export const erasedEmail = (userId: string) => `deleted-${userId}@invalid`;

/**
 * Erases the account's personal data at once. The row stays, with only its id, because ledger and
 * payment records elsewhere point to it; AccountDeleted tells those services to drop what they hold.
 */
@Controller()
export class DeleteAccountRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: VerificationCodes,
    private readonly audit: AuditLog,
    private readonly devices: DeviceSignals,
  ) {}

  @RpcHandler(IdentityRpc.deleteAccount)
  async delete(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.deleteAccount>> {
    const userId = actingUserId(meta);
    await this.uow.run(async (tx) => {
      const user = await this.users.require(userId, tx.manager, { lock: true });
      const linked = await this.devices.linkedTo(tx.manager, userId);
      await this.codes.forget(tx.manager, [user.email], userId);
      await tx.manager.getRepository(PasswordResetToken).delete({ userId });
      await tx.manager.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
      await tx.manager.query('DELETE FROM two_factor WHERE user_id = $1', [userId]);
      await tx.manager.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
      const deletedAt = new Date();
      await tx.manager.getRepository(User).update(userId, {
        email: erasedEmail(userId),
        name: null,
        phone: null,
        passwordHash: null,
        passwordChangedAt: null,
        emailVerified: false,
        isAdmin: false,
        settings: DEFAULT_USER_SETTINGS,
        deletedAt,
      });
      // The events identity published about the person (sign-up codes, profile changes) carry their
      // email and name: the published ones go now. AccountDeleted itself names only the id.
      await OutboxErasure.erase(tx.manager, [userId, user.email]);
      tx.publish(AccountDeleted, { userId, deletedAt: deletedAt.toISOString() });
      // The accounts a device linked to this one are linked to one fewer (the risk rules).
      await this.devices.announce(tx, linked);
    });
    this.audit.record('account_deleted', { userId });
    return { userId };
  }
}
