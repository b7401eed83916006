import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The session's captcha mark (set by POST /api/verify-captcha, checked by CaptchaGuard). A refused
 * ICCID lookup spends it, so that each new guess needs a new captcha (docs/redemption.md, "ICCID
 * lookups").
 */
@Injectable()
export class CaptchaMarks {
  async spend(req: Request): Promise<void> {
    if (!req.session?.captchaVerifiedUntil) return;
    delete req.session.captchaVerifiedUntil;
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
  }
}
