import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';

/**
 * Every /api/admin route: 401 for a visitor, 403 for a signed-in non-admin. The flag is asked of
 * identity on each request, so a revoked admin is out at once, whatever their session says.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly rpc: RpcClient) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const userId = ctx.switchToHttp().getRequest<Request>().session?.userId;
    if (!userId) throw new AppError('unauthorized', 'Please sign in to continue.');
    const { isAdmin } = await this.rpc.call(IdentityRpc.isAdmin, { userId });
    if (!isAdmin) throw new AppError('forbidden', "Access Denied - You don't have admin privileges.", { reason: 'not_admin' });
    return true;
  }
}
