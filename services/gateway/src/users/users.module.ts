import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AccountController } from './account.controller';
import { ProfileController } from './profile.controller';
import { SettingsController } from './settings.controller';

@Module({
  imports: [AuthModule, SessionsModule, RateLimitsModule],
  controllers: [ProfileController, SettingsController, AccountController],
})
export class UsersModule {}
