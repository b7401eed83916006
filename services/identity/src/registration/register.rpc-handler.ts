import { Controller } from '@nestjs/common';
import { ExistingAccountSignupAttempted, IdentityRpc, RpcRequest, RpcResponse, VerificationCodeIssued } from '@esim/contracts';
import { RpcHandler, UnitOfWork } from '@esim/platform';
import { Users } from '../users/users';
import { CODE_TTL_MINUTES, VerificationCodes } from './verification-codes';

/**
 * Step one of sign-up. The answer never tells whether the email has an account: a new address
 * gets a code, an existing account's owner gets a "someone tried to sign up" email instead.
 */
@Controller()
export class RegisterRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly codes: VerificationCodes,
  ) {}

  @RpcHandler(IdentityRpc.register)
  async register({ email, name, locale }: RpcRequest<typeof IdentityRpc.register>): Promise<RpcResponse<typeof IdentityRpc.register>> {
    await this.uow.run(async (tx) => {
      const existing = await this.users.findByEmail(email, tx.manager);
      if (existing) {
        tx.publish(ExistingAccountSignupAttempted, { userId: existing.id, email: existing.email, locale: existing.locale });
        return;
      }
      const code = await this.codes.issue(tx.manager, { purpose: 'signup', email }, email);
      if (code) tx.publish(VerificationCodeIssued, { email, code, name, locale, expiresInMinutes: CODE_TTL_MINUTES });
    });
    return { email };
  }
}
