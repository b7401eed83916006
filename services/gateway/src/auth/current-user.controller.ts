import { Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { UserView } from '@esim/contracts';
import { AppError } from '@esim/platform';
import { AuthGuard, CurrentUserId, signedInUserId } from '../sessions/auth.guard';
import { SessionService } from '../sessions/session.service';
import { UserViewService } from './user-view.service';

@Controller('api')
export class CurrentUserController {
  constructor(
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
  ) {}

  @Get('user')
  @UseGuards(AuthGuard)
  async me(@Req() req: Request, @CurrentUserId() userId: string): Promise<UserView> {
    try {
      return await this.users.current(userId);
    } catch (err) {
      // The account is gone (deleted elsewhere): this session means nothing any more.
      if (err instanceof AppError && err.code === 'not_found') {
        await this.sessions.signOut(req);
        throw new AppError('sign_in_required', 'Please sign in to continue.');
      }
      throw err;
    }
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: Request) {
    if (signedInUserId(req)) await this.sessions.signOut(req);
    return { message: 'Signed out' };
  }
}
