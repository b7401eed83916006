import { Module } from '@nestjs/common';
import { LineUsageController } from './line-usage.controller';

/** The My eSIMs wallet beyond the lists of purchases and lines: usage read from the provider. */
@Module({ controllers: [LineUsageController] })
export class WalletModule {}
