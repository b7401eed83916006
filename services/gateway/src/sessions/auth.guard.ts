import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '@esim/platform';

/** The signed-in user's id (passport's `req.user`), if any. */
export const signedInUserId = (req: Request): string | undefined => req.user?.id;

/** 401 unless the request carries a live signed-in session. */
@Injectable()
export class AuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    if (!signedInUserId(ctx.switchToHttp().getRequest<Request>())) throw new AppError('sign_in_required', 'Please sign in to continue.');
    return true;
  }
}

/** The signed-in user's id; use behind AuthGuard. */
export const CurrentUserId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const userId = signedInUserId(ctx.switchToHttp().getRequest<Request>());
  if (!userId) throw new AppError('sign_in_required', 'Please sign in to continue.');
  return userId;
});
