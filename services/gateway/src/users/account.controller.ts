import { Controller, Delete, HttpCode, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { SessionService } from '../sessions/session.service';

@Controller('api/user')
@UseGuards(AuthGuard)
export class AccountController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
  ) {}

  /** Erases the account at once and ends every one of its sessions. */
  @Delete('account')
  @HttpCode(200)
  async delete(@Req() req: Request, @CurrentUserId() userId: string) {
    await this.rpc.call(IdentityRpc.deleteAccount, {});
    // At once for this answer; AccountDeleted ends them too when this answer never comes (a timeout).
    await this.sessions.signOut(req);
    await this.sessions.endAllSessions(userId);
    return { message: 'Your account has been permanently deleted.' };
  }
}
