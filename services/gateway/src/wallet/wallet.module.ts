import { Module } from '@nestjs/common';
import { RedemptionsModule } from '../redemptions/redemptions.module';
import { LineUsageController } from './line-usage.controller';
import { WalletController } from './wallet.controller';

/**
 * The My eSIMs wallet beyond the lists of purchases: the user's data gifts to claim, the eSIM lines
 * redemptions and gifts delivered (with their QR codes), and usage read from the provider.
 */
@Module({
  imports: [RedemptionsModule],
  controllers: [WalletController, LineUsageController],
})
export class WalletModule {}
