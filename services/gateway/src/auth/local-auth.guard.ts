import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { loginRequestSchema } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';

/**
 * Runs the `local` strategy on the sign-in body. Guards run before pipes, so the body is validated
 * here first: a bad one gets the contract's 400 message, and passport only ever reads fields that
 * passed (trimmed, lower-case email). Failures are the strategy's own AppErrors (401, 429).
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  private readonly body = new ZodPipe(loginRequestSchema);

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request>();
    req.body = this.body.transform(req.body);
    return (await super.canActivate(ctx)) as boolean;
  }
}
