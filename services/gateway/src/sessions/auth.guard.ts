import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '@esim/platform';

/** 401 unless the request carries a live signed-in session. */
@Injectable()
export class AuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!req.session?.userId) throw new AppError('unauthorized', 'Please sign in to continue.');
    return true;
  }
}

/** The signed-in user's id; use behind AuthGuard. */
export const CurrentUserId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const userId = ctx.switchToHttp().getRequest<Request>().session?.userId;
  if (!userId) throw new AppError('unauthorized', 'Please sign in to continue.');
  return userId;
});
