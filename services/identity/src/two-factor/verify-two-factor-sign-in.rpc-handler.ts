import { Controller } from '@nestjs/common';
import { RpcRequest, RpcResponse, TwoFactorRpc } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { toIdentityUser, Users } from '../users/users';
import { SecondFactor } from './second-factor';

/**
 * The second step of a sign-in. The gateway calls it only for the user whose password it checked
 * in this session (IdentityRpc.login answered twoFactorRequired), and counts every attempt in the
 * login limits. A wrong code answers 401, like a wrong password.
 */
@Controller()
export class VerifyTwoFactorSignInRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly secondFactor: SecondFactor,
    private readonly audit: AuditLog,
  ) {}

  @RpcHandler(TwoFactorRpc.verifySignIn)
  async verify({ signingInUserId: userId, code }: RpcRequest<typeof TwoFactorRpc.verifySignIn>): Promise<RpcResponse<typeof TwoFactorRpc.verifySignIn>> {
    const outcome = await this.uow.run(async (tx) => {
      await this.users.require(userId, tx.manager);
      return this.secondFactor.spend(tx.manager, userId, code);
    });
    if (outcome !== 'accepted') {
      this.audit.record('sign_in_failed', { userId, reason: 'wrong_second_factor' });
      throw new AppError('two_factor_sign_in_code_invalid', 'The code is wrong or was already used');
    }
    this.audit.record('sign_in', { userId, reason: 'second_factor' });
    return { user: toIdentityUser(await this.users.require(userId)) };
  }
}
