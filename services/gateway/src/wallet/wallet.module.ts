import { Module } from '@nestjs/common';
import { RedemptionsModule } from '../redemptions/redemptions.module';
import { AutoTopupController } from './auto-topup.controller';
import { LineUsageController } from './line-usage.controller';
import { WalletController } from './wallet.controller';

/**
 * The My eSIMs wallet beyond the lists of purchases: the user's data gifts to claim, the eSIM lines
 * redemptions and gifts delivered (with their QR codes), usage read from the provider, and the
 * automatic top-up with points of a line.
 */
@Module({
  imports: [RedemptionsModule],
  controllers: [WalletController, LineUsageController, AutoTopupController],
})
export class WalletModule {}
