import { Module } from '@nestjs/common';
import { CaptchaModule } from '../captcha/captcha.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { GenerateQrController } from './generate-qr.controller';
import { IccidLookups } from './iccid-lookups';
import { PointsStatementController } from './points-statement.controller';
import { QrCodes } from './qr-codes';
import { RedeemController } from './redeem.controller';
import { RedemptionAnswers } from './redemption-answers';
import { WalletController } from './wallet.controller';

/**
 * Redeeming (points or gifts), the points statement, QR codes, the user's gifts and eSIM lines
 * (docs/redemption.md);
 * admin gifting is in the admin module.
 */
@Module({
  imports: [CaptchaModule, RateLimitsModule],
  controllers: [RedeemController, PointsStatementController, GenerateQrController, WalletController],
  providers: [QrCodes, RedemptionAnswers, IccidLookups],
})
export class RedemptionsModule {}
