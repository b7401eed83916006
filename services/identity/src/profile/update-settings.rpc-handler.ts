import { Controller } from '@nestjs/common';
import { IdentityRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { LiveUser, User } from '../users/user.entity';
import { publishProfileChanged } from '../users/profile-changed';
import { toIdentityUser, Users } from '../users/users';

/**
 * Toggles are saved one at a time by the SPA, so only the ones sent change. `twoFactorAuth` shows
 * the real state of two-factor sign-in: only enrolling and disabling change it (two-factor/), so a
 * request to set it to anything else is refused and nothing is saved.
 */
@Controller()
export class UpdateSettingsRpcHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: Users,
  ) {}

  @RpcHandler(IdentityRpc.updateSettings)
  async update(
    { settings, locale }: RpcRequest<typeof IdentityRpc.updateSettings>,
    meta: RpcMeta,
  ): Promise<RpcResponse<typeof IdentityRpc.updateSettings>> {
    const userId = actingUserId(meta);
    const user = await this.uow.run(async (tx) => {
      const current = await this.users.require(userId, tx.manager, { lock: true });
      if (settings.twoFactorAuth !== undefined && settings.twoFactorAuth !== toIdentityUser(current).settings.twoFactorAuth) {
        throw new AppError('two_factor_needs_enrolment', 'Two-factor sign-in is turned on by enrolling an app and off with a code');
      }
      current.settings = { ...toIdentityUser(current).settings, ...settings };
      if (locale) current.locale = locale;
      const saved = (await tx.manager.getRepository(User).save(current)) as LiveUser;
      publishProfileChanged(tx, saved);
      return saved;
    });
    return { user: toIdentityUser(user) };
  }
}
