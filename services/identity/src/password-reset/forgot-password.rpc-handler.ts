import { Controller, Inject } from '@nestjs/common';
import { IdentityRpc, PasswordResetRequested, RpcRequest, RpcResponse } from '@esim/contracts';
import { CONFIG, RpcHandler, UnitOfWork } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { Users } from '../users/users';
import { PasswordResetToken } from './password-reset-token.entity';
import { hashResetToken, newResetToken, RESET_TOKEN_TTL_MINUTES } from './reset-tokens';

/**
 * Emails a reset link to a known account; an unknown email gets the same empty answer. A new link
 * retires the account's older ones. The link is built from PUBLIC_URL, never from a request.
 */
@Controller()
export class ForgotPasswordRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
    private readonly audit: AuditLog,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  @RpcHandler(IdentityRpc.forgotPassword)
  async forgot({ email }: RpcRequest<typeof IdentityRpc.forgotPassword>): Promise<RpcResponse<typeof IdentityRpc.forgotPassword>> {
    const user = await this.users.findByEmail(email);
    if (!user) return {};
    const token = newResetToken();
    await this.uow.run(async (tx) => {
      const tokens = tx.manager.getRepository(PasswordResetToken);
      await tx.manager.query('DELETE FROM password_reset_tokens WHERE user_id = $1 AND (used OR expires_at <= now())', [user.id]);
      await tokens.update({ userId: user.id, used: false }, { used: true });
      await tokens.insert({
        userId: user.id,
        tokenHash: hashResetToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000),
      });
      const resetUrl = new URL('/reset-password', this.config.PUBLIC_URL);
      resetUrl.searchParams.set('token', token);
      tx.publish(PasswordResetRequested, {
        userId: user.id,
        email: user.email,
        name: user.name,
        locale: user.locale,
        resetUrl: resetUrl.toString(),
        expiresInMinutes: RESET_TOKEN_TTL_MINUTES,
      });
    });
    this.audit.record('password_reset_requested', { userId: user.id });
    return {};
  }
}
