import { Controller } from '@nestjs/common';
import { IdentityRpc, PasswordResetAsked, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler, UnitOfWork } from '@esim/platform';

/**
 * Records that a reset link was asked for this address, and answers. Known and unknown emails do
 * exactly the same work before the answer (one event written with nothing read), so neither the
 * answer nor its timing tells whether an account exists; the link itself is issued right after, by
 * PasswordResetAskedEventHandler, from the same durable record.
 */
@Controller()
export class ForgotPasswordRpcHandler {
  constructor(private readonly uow: UnitOfWork) {}

  @RpcHandler(IdentityRpc.forgotPassword)
  async forgot({ email }: RpcRequest<typeof IdentityRpc.forgotPassword>): Promise<RpcResponse<typeof IdentityRpc.forgotPassword>> {
    await this.uow.run(async (tx) => {
      tx.publish(PasswordResetAsked, { email, askedAt: new Date().toISOString() });
    });
    return {};
  }
}
