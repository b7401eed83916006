import { Module } from '@nestjs/common';
import { ReferralsController } from './referrals.controller';

/** /api/referrals. */
@Module({
  controllers: [ReferralsController],
})
export class ReferralsModule {}
