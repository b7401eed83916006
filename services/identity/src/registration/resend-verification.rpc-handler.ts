import { Controller } from '@nestjs/common';
import { IdentityRpc, RpcRequest, RpcResponse, VerificationCodeIssued } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { CODE_TTL_MINUTES, RESEND_INTERVAL_MS, VerificationCodes } from './verification-codes';

/**
 * A new sign-up code replaces the open one. Without a pending sign-up nothing is sent, with the
 * same answer; the gateway's per-email limit spaces resends a minute apart for every address alike.
 */
@Controller()
export class ResendVerificationRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly codes: VerificationCodes,
  ) {}

  @RpcHandler(IdentityRpc.resendVerification)
  async resend({
    email,
    locale,
  }: RpcRequest<typeof IdentityRpc.resendVerification>): Promise<RpcResponse<typeof IdentityRpc.resendVerification>> {
    await this.uow.run(async (tx) => {
      const target = { purpose: 'signup' as const, email };
      const open = await this.codes.open(tx.manager, target);
      if (!open) return;
      if (open.resent && Date.now() - open.createdAt.getTime() < RESEND_INTERVAL_MS) {
        throw new AppError('resend_too_soon', 'Too many attempts. Please try again later.');
      }
      const code = await this.codes.issue(tx.manager, target, email, { resent: true });
      if (code) tx.publish(VerificationCodeIssued, { email, code, name: null, locale, expiresInMinutes: CODE_TTL_MINUTES });
    });
    return { email };
  }
}
