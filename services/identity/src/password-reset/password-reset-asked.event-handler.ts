import { Inject } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { EventPayload, PasswordResetAsked, PasswordResetRequested } from '@esim/contracts';
import { CONFIG, EventHandler, Tx } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { Users } from '../users/users';
import { PasswordResetToken } from './password-reset-token.entity';
import { hashResetToken, newResetToken, RESET_TOKEN_TTL_MINUTES } from './reset-tokens';

/**
 * Issues the reset link a forgot-password request recorded, when the address has a live account;
 * an unknown address ends here. A new link retires the account's older ones. The link is built
 * from PUBLIC_URL, never from a request. It runs in the consumer's transaction, so a redelivered
 * request issues nothing twice.
 */
@EventHandler(PasswordResetAsked)
export class PasswordResetAskedEventHandler implements EventHandler<typeof PasswordResetAsked> {
  constructor(
    private readonly users: Users,
    private readonly audit: AuditLog,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  async handle({ email }: EventPayload<typeof PasswordResetAsked>, tx: Tx): Promise<void> {
    const found = await this.users.findByEmail(email, tx.manager);
    if (!found) return;
    // Two requests handled at once must leave one live link: the second waits for the first.
    const user = await this.users.require(found.id, tx.manager, { lock: true });
    const token = newResetToken();
    const tokens = tx.manager.getRepository(PasswordResetToken);
    // Spent and expired links of the account are only personal data now; open ones are retired.
    await tokens.delete({ userId: user.id, used: true });
    await tokens.delete({ userId: user.id, expiresAt: LessThanOrEqual(new Date()) });
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
    this.audit.record('password_reset_requested', { userId: user.id });
  }
}
