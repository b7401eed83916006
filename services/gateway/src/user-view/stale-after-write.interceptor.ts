import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, concatMap, from, Observable, throwError } from 'rxjs';
import { UserViewCache } from './user-view-cache';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes for the user view: after any state-changing request of a signed-in user
 * (redeem, claim a gift, change the profile…), answered or failed, the user's view is marked
 * stale before the answer leaves, so the page's next `GET /api/user` asks the owners instead of
 * showing the view from before the write while the owners' events are still on their way. Other
 * users' views, and reads, are untouched.
 */
@Injectable()
export class StaleAfterWriteInterceptor implements NestInterceptor {
  private readonly log = new Logger('UserView');

  constructor(private readonly cache: UserViewCache) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return next.handle();
    const mark = async (): Promise<void> => {
      // Whoever is signed in once the handler ran: a sign-in marks the new user, a sign-out nobody.
      const userId = req.user?.id;
      if (userId) await this.cache.markStale(userId).catch((err: Error) => this.log.warn(`could not mark ${userId}'s view stale: ${err.message}`));
    };
    return next.handle().pipe(
      concatMap((value) => from(mark().then(() => value))),
      catchError((err: unknown) => from(mark()).pipe(concatMap(() => throwError(() => err)))),
    );
  }
}
