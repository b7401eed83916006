import { Body, Controller, Patch, UseGuards } from '@nestjs/common';
import { IdentityRpc, UpdateSettingsRequest, updateSettingsRequestSchema, UserView } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { UserViewService } from '../auth/user-view.service';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';

@Controller('api/user')
@UseGuards(AuthGuard)
export class SettingsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly users: UserViewService,
  ) {}

  /** Any of the six toggles and the language; fields not sent keep their value. */
  @Patch('settings')
  async update(
    @CurrentUserId() userId: string,
    @Body(new ZodPipe(updateSettingsRequestSchema)) body: UpdateSettingsRequest,
  ): Promise<{ user: UserView; message: string }> {
    const { locale, ...settings } = body;
    await this.rpc.call(IdentityRpc.updateSettings, { settings, locale });
    return { user: await this.users.forUser(userId), message: 'Settings saved' };
  }
}
