import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { CaptchaModule } from '../captcha/captcha.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { AdminGiftsController } from './admin-gifts.controller';
import { GenerateQrController } from './generate-qr.controller';
import { IccidLookups } from './iccid-lookups';
import { PointsStatementController } from './points-statement.controller';
import { QrCodes } from './qr-codes';
import { RedeemController } from './redeem.controller';
import { RedemptionAnswers } from './redemption-answers';
import { WalletController } from './wallet.controller';

/**
 * Redeeming (points or gifts), the points statement, QR codes, the user's gifts and eSIM lines,
 * and admin gifting (docs/redemption.md).
 */
@Module({
  imports: [CaptchaModule, AdminModule, RateLimitsModule],
  controllers: [RedeemController, PointsStatementController, GenerateQrController, AdminGiftsController, WalletController],
  providers: [QrCodes, RedemptionAnswers, IccidLookups],
})
export class RedemptionsModule {}
