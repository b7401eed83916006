import { Inject, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { SessionsModule } from '../sessions/sessions.module';
import { CaptchaMarks } from './captcha-marks';
import { CAPTCHA_SETTINGS } from './captcha.tokens';
import { captchaSettings, CaptchaSettings } from './captcha-settings';
import { CaptchaController } from './captcha.controller';
import { CaptchaGuard } from './captcha.guard';
import { CaptchaVerifier } from './captcha-verifier';

@Injectable()
class CaptchaModeLog implements OnApplicationBootstrap {
  constructor(@Inject(CAPTCHA_SETTINGS) private readonly settings: CaptchaSettings) {}
  onApplicationBootstrap(): void {
    const log = new Logger('Captcha');
    if (this.settings.sandbox)
      log.warn(`SANDBOX: no CAPTCHA_SECRET, captchas are checked by the siteverify emulator (the sandboxes process) at ${this.settings.verifyUrl}. Not for real users.`);
    else log.log(`captchas are verified at ${this.settings.verifyUrl}`);
  }
}

/** POST /api/verify-captcha, and the CaptchaGuard (and CaptchaMarks) other features use. */
@Module({
  imports: [SessionsModule],
  controllers: [CaptchaController],
  providers: [
    { provide: CAPTCHA_SETTINGS, inject: [CONFIG], useFactory: (c: GatewayConfig) => captchaSettings(c) },
    CaptchaVerifier,
    CaptchaGuard,
    CaptchaMarks,
    CaptchaModeLog,
  ],
  exports: [CaptchaGuard, CaptchaMarks],
})
export class CaptchaModule {}
