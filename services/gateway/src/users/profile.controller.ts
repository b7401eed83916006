import { Body, Controller, HttpCode, Patch, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import {
  ConfirmEmailChangeRequest,
  confirmEmailChangeRequestSchema,
  IdentityRpc,
  UpdateProfileRequest,
  updateProfileRequestSchema,
  UpdateProfileResponse,
  UserView,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { UserViewService } from '../auth/user-view.service';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { Hit, RateLimits } from '../rate-limits/rate-limits';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { SessionService, sessionRef } from '../sessions/session.service';

/**
 * The signed-in user's own profile; the user is always the session's, never one named in the body.
 * A password change ends the user's other sessions; a new email waits for its code.
 */
@Controller('api/user')
@UseGuards(AuthGuard)
export class ProfileController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
    private readonly users: UserViewService,
    private readonly limits: RateLimits,
  ) {}

  @Patch('profile')
  async update(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @Body(new ZodPipe(updateProfileRequestSchema)) body: UpdateProfileRequest,
  ): Promise<UpdateProfileResponse> {
    // A stolen session must not become a way to guess the password.
    const passwordCheck: Hit | undefined = body.currentPassword ? ['passwordCheckUser', userId] : undefined;
    if (passwordCheck) await this.limits.consume(req, passwordCheck);
    const result = await this.rpc.call(IdentityRpc.updateProfile, {
      name: body.username,
      email: body.email,
      phone: body.phone,
      currentPassword: body.currentPassword,
      newPassword: body.newPassword,
      sessionRef: sessionRef(req.sessionID),
    });
    if (passwordCheck) await this.limits.refund(passwordCheck);
    // At once for this answer; PasswordChanged ends them too when this answer never comes (a timeout).
    if (result.passwordChanged) await this.sessions.endOtherSessions(userId, req.sessionID);
    return {
      user: await this.users.forUser(userId),
      pendingEmail: result.pendingEmail,
      message: result.pendingEmail
        ? `Profile updated. Enter the code we sent to ${result.pendingEmail} to confirm your new email.`
        : 'Profile updated',
    };
  }

  @Post('email/verify')
  @HttpCode(200)
  async confirmEmail(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @Body(new ZodPipe(confirmEmailChangeRequestSchema)) body: ConfirmEmailChangeRequest,
  ): Promise<{ user: UserView; message: string }> {
    await this.limits.consume(req, ['verifyIp', clientNetwork(req)]);
    await this.rpc.call(IdentityRpc.confirmEmailChange, { code: body.code });
    return { user: await this.users.forUser(userId), message: 'Email updated' };
  }
}
