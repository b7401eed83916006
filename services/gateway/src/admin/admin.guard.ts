import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { signedInUserId } from '../sessions/auth.guard';

/**
 * Every /api/admin route: 401 for a visitor, 403 for a signed-in non-admin. The flag is asked of
 * identity on each request, so a revoked admin is out at once, whatever their session says.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly rpc: RpcClient) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (!signedInUserId(ctx.switchToHttp().getRequest<Request>())) throw new AppError('sign_in_required', 'Please sign in to continue.');
    // Identity answers for the acting user, the signed-in one (RpcMeta).
    const { isAdmin } = await this.rpc.call(IdentityRpc.isAdmin, {});
    if (!isAdmin) throw new AppError('not_admin', "Access Denied - You don't have admin privileges.");
    return true;
  }
}
