import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CAPTCHA_REQUIRED_MESSAGE } from '@esim/contracts';
import { AppError } from '@esim/platform';

/** For routes that need a solved captcha (starting a mission, redeeming): 403 without a live mark. */
@Injectable()
export class CaptchaGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const until = ctx.switchToHttp().getRequest<Request>().session?.captchaVerifiedUntil;
    if (!until || until <= Date.now()) throw new AppError('captcha_required', CAPTCHA_REQUIRED_MESSAGE);
    return true;
  }
}
