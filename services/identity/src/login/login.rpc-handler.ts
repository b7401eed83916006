import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdentityRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { AuditLog } from '../audit/audit-log';
import { DeviceSignals } from '../referrals/device-signals';
import { PasswordHasher } from '../credentials/password-hasher';
import { SecondFactor } from '../two-factor/second-factor';
import { User } from '../users/user.entity';
import { toIdentityUser, Users } from '../users/users';

export const invalidCredentialsError = () => new AppError('invalid_credentials', 'Invalid email or password');

/**
 * Checks email and password. An unknown email still costs one argon2 verification, so neither the
 * answer nor its timing tells whether an account exists. Hashes made with weaker parameters than
 * today's are replaced while the password is at hand.
 */
@Controller()
export class LoginRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly users: Users,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly secondFactor: SecondFactor,
    private readonly devices: DeviceSignals,
    private readonly uow: UnitOfWork,
  ) {}

  @RpcHandler(IdentityRpc.login)
  async login({ email, password, deviceId, network }: RpcRequest<typeof IdentityRpc.login>): Promise<RpcResponse<typeof IdentityRpc.login>> {
    const user = await this.users.findByEmail(email);
    if (!user) {
      await this.hasher.verifyNobody(password);
      this.audit.record('sign_in_failed', { reason: 'unknown_email' });
      throw invalidCredentialsError();
    }
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      this.audit.record('sign_in_failed', { userId: user.id, reason: 'wrong_password' });
      throw invalidCredentialsError();
    }
    if (this.hasher.needsRehash(user.passwordHash)) {
      const upgraded = await this.hasher.hash(password);
      // Only if the hash is still the one just verified: a concurrent password change wins.
      await this.db.getRepository(User).update({ id: user.id, passwordHash: user.passwordHash }, { passwordHash: upgraded });
      user.passwordHash = upgraded;
    }
    // The password was right: the device is one this account uses (docs/earning.md, "Referrals").
    // A device new to the account may link it to others: their signals are announced with it (the risk rules).
    await this.uow.run(async (tx) => {
      if (await this.devices.record(tx.manager, user.id, deviceId)) await this.devices.announceWithLinked(tx, user.id);
      await this.devices.recordNetwork(tx.manager, user.id, network);
    });
    // The password was right; with 2FA on, the sign-in is complete only after the second step.
    if (await this.secondFactor.isEnabled(user.id)) return { user: toIdentityUser(user), twoFactorRequired: true };
    this.audit.record('sign_in', { userId: user.id });
    return { user: toIdentityUser(user), twoFactorRequired: false };
  }
}
