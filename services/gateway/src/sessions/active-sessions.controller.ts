import { Controller, Delete, Get, Param, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ActiveSessionsResponse, EndedSessionsResponse, sessionIdParamsSchema } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard, CurrentUserId } from './auth.guard';
import { SessionService } from './session.service';

/** The account's sessions on /profile: list them, end one or all the others. */
@Controller('api/user/sessions')
@UseGuards(AuthGuard)
export class ActiveSessionsController {
  constructor(private readonly sessions: SessionService) {}

  @Get()
  async list(@Req() req: Request, @CurrentUserId() userId: string): Promise<ActiveSessionsResponse> {
    return { sessions: await this.sessions.list(userId, req.sessionID) };
  }

  @Delete(':id')
  async endOne(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @Param(new ZodPipe(sessionIdParamsSchema)) { id }: { id: string },
  ): Promise<EndedSessionsResponse> {
    const ended = await this.sessions.endByRef(userId, id, req.sessionID);
    return { ended, message: 'Session ended' };
  }

  @Delete()
  async endOthers(@Req() req: Request, @CurrentUserId() userId: string): Promise<EndedSessionsResponse> {
    const ended = await this.sessions.endOtherSessions(userId, req.sessionID);
    return { ended, message: 'Other sessions ended' };
  }
}
