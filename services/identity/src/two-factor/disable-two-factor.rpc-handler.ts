import { Controller } from '@nestjs/common';
import { RpcMeta, RpcRequest, RpcResponse, TwoFactorRpc } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { toIdentityUser, Users } from '../users/users';
import { SecondFactor } from './second-factor';
import { wrongCodeError } from './two-factor-codes';
import { TwoFactorSwitch } from './two-factor-switch';

/** Turns 2FA off with a TOTP or a recovery code: the secret and every recovery code are erased. */
@Controller()
export class DisableTwoFactorRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly secondFactor: SecondFactor,
    private readonly toggle: TwoFactorSwitch,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(TwoFactorRpc.disable)
  async disable({ code }: RpcRequest<typeof TwoFactorRpc.disable>, meta: RpcMeta): Promise<RpcResponse<typeof TwoFactorRpc.disable>> {
    const userId = actingUserId(meta);
    const user = await this.uow.run(async (tx) => {
      const current = await this.users.require(userId, tx.manager, { lock: true });
      const outcome = await this.secondFactor.spend(tx.manager, userId, code);
      if (outcome === 'not_enabled') throw new AppError('two_factor_not_enabled', 'Two-factor sign-in is off');
      if (outcome === 'wrong') throw wrongCodeError();
      await tx.manager.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
      await tx.manager.query('DELETE FROM two_factor WHERE user_id = $1', [userId]);
      return this.toggle.set(tx, current, false);
    });
    this.audit.record('two_factor_disabled', { userId });
    return { user: toIdentityUser(user) };
  }
}
