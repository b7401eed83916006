import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { TwoFactorRequiredResponse, UserView } from '@esim/contracts';
import { CurrentUserId } from '../sessions/auth.guard';
import { SessionService } from '../sessions/session.service';
import { LocalAuthGuard } from './local-auth.guard';
import { UserViewService } from './user-view.service';

/**
 * Email + password sign-in (passport's local strategy, LocalAuthGuard) on a fresh session id. With
 * two-factor sign-in on, the session only waits for the code (TwoFactorSignInController).
 */
@Controller('api')
export class LoginController {
  constructor(
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @UseGuards(LocalAuthGuard)
  async login(@Req() req: Request, @CurrentUserId() userId: string): Promise<UserView | TwoFactorRequiredResponse> {
    if (req.user?.twoFactorRequired) {
      await this.sessions.awaitSecondFactor(req, { userId, email: (req.body as { username: string }).username });
      return { twoFactorRequired: true };
    }
    await this.sessions.signIn(req, { id: userId });
    return this.users.forUser(userId);
  }
}
