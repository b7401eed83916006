import { Controller } from '@nestjs/common';
import { RpcMeta, RpcResponse, TwoFactorRpc } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { Users } from '../users/users';
import { SecretBox } from './secret-box';
import { TwoFactorCodes } from './two-factor-codes';

/**
 * Starts (or restarts) enrolment: a new pending secret, answered this once. It signs nobody in
 * until `enable` proves the app holds it; while 2FA is on, a new one needs disabling first.
 */
@Controller()
export class SetupTwoFactorRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: TwoFactorCodes,
    private readonly box: SecretBox,
  ) {}

  @RpcHandler(TwoFactorRpc.setup)
  async setup(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof TwoFactorRpc.setup>> {
    const userId = actingUserId(meta);
    return this.uow.run(async (tx) => {
      const user = await this.users.require(userId, tx.manager, { lock: true });
      const row = await this.codes.row(userId, tx.manager, true);
      if (row?.secret) throw new AppError('two_factor_already_enabled', 'Two-factor sign-in is already on');
      const secret = this.codes.newSecret();
      await tx.manager.query(
        `INSERT INTO two_factor (user_id, pending_secret) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret`,
        [userId, this.box.seal(secret)],
      );
      return { secret, otpauthUrl: this.codes.otpauthUrl(secret, user.email) };
    });
  }
}
