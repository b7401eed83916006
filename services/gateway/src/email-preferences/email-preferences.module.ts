import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { UnsubscribeController } from './unsubscribe.controller';

/** What a person can change about the email they get without signing in: promotional email off. */
@Module({
  imports: [RateLimitsModule],
  controllers: [UnsubscribeController],
})
export class EmailPreferencesModule {}
