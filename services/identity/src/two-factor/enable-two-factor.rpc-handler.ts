import { Controller } from '@nestjs/common';
import { RpcMeta, RpcRequest, RpcResponse, TwoFactorRpc } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { toIdentityUser, Users } from '../users/users';
import { SecretBox } from './secret-box';
import { TwoFactorCodes, wrongCodeError } from './two-factor-codes';
import { TwoFactorSwitch } from './two-factor-switch';

/** Turns 2FA on once a code from the pending secret proves the app holds it; answers the recovery codes, once. */
@Controller()
export class EnableTwoFactorRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: TwoFactorCodes,
    private readonly box: SecretBox,
    private readonly toggle: TwoFactorSwitch,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(TwoFactorRpc.enable)
  async enable({ code }: RpcRequest<typeof TwoFactorRpc.enable>, meta: RpcMeta): Promise<RpcResponse<typeof TwoFactorRpc.enable>> {
    const userId = actingUserId(meta);
    const answer = await this.uow.run(async (tx) => {
      const user = await this.users.require(userId, tx.manager, { lock: true });
      const row = await this.codes.row(userId, tx.manager, true);
      if (row?.secret) throw new AppError('two_factor_already_enabled', 'Two-factor sign-in is already on');
      if (!row?.pending_secret) throw new AppError('two_factor_not_set_up', 'Start the set-up first');
      const step = await this.codes.matchingStep(this.box.open(row.pending_secret), code, null);
      if (step === null) throw wrongCodeError();
      await tx.manager.query(
        'UPDATE two_factor SET secret = pending_secret, pending_secret = NULL, enabled_at = now(), last_time_step = $2 WHERE user_id = $1',
        [userId, step],
      );
      const recoveryCodes = await this.codes.issueRecoveryCodes(tx.manager, userId);
      const saved = await this.toggle.set(tx, user, true);
      return { recoveryCodes, user: toIdentityUser(saved) };
    });
    this.audit.record('two_factor_enabled', { userId });
    return answer;
  }
}
