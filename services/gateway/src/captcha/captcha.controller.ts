import { Body, Controller, Get, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CaptchaConfig, VerifyCaptchaRequest, verifyCaptchaRequestSchema, VerifyCaptchaResponse } from '@esim/contracts';
import { clientIp } from '../common/client-ip';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';
import { CAPTCHA_SETTINGS } from './captcha.tokens';
import { CAPTCHA_VALIDITY_MS, CaptchaSettings } from './captcha-settings';
import { CaptchaVerifier } from './captcha-verifier';

@Controller('api')
export class CaptchaController {
  constructor(
    private readonly verifier: CaptchaVerifier,
    @Inject(CAPTCHA_SETTINGS) private readonly settings: CaptchaSettings,
  ) {}

  /** What the widget needs; `sandbox` tells the page to say that captchas are emulated. */
  @Get('captcha/config')
  config(): CaptchaConfig {
    return { provider: 'turnstile', siteKey: this.settings.siteKey, sandbox: this.settings.sandbox };
  }

  /** Checks the token with siteverify and marks the session verified for 5 minutes. */
  @Post('verify-captcha')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  async verify(
    @Req() req: Request,
    @Body(new ZodPipe(verifyCaptchaRequestSchema)) body: VerifyCaptchaRequest,
  ): Promise<VerifyCaptchaResponse> {
    await this.verifier.verify(body.token, clientIp(req));
    const until = Date.now() + CAPTCHA_VALIDITY_MS;
    req.session.captchaVerifiedUntil = until;
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
    return { success: true, verifiedUntil: new Date(until).toISOString() };
  }
}
