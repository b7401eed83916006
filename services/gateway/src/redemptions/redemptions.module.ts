import { Module } from '@nestjs/common';
import { CaptchaModule } from '../captcha/captcha.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { GenerateQrController } from './generate-qr.controller';
import { IccidLookups } from './iccid-lookups';
import { PointsStatementController } from './points-statement.controller';
import { QrCodes } from './qr-codes';
import { RedeemController } from './redeem.controller';
import { RedemptionAnswers } from './redemption-answers';
import { RedemptionStandingController } from './redemption-standing.controller';

/**
 * Redeeming (points or gifts), the points statement and QR codes (docs/redemption.md);
 * the user's gifts and eSIM lines are in the wallet module;
 * admin gifting is in the admin module.
 */
@Module({
  imports: [CaptchaModule, RateLimitsModule],
  controllers: [RedeemController, PointsStatementController, GenerateQrController, RedemptionStandingController],
  providers: [QrCodes, RedemptionAnswers, IccidLookups],
  // The wallet shows its lines' QR codes too.
  exports: [QrCodes],
})
export class RedemptionsModule {}
