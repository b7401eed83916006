import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AccountController } from './account.controller';
import { ProfileController } from './profile.controller';
import { SettingsController } from './settings.controller';

@Module({
  imports: [AuthModule],
  controllers: [ProfileController, SettingsController, AccountController],
})
export class UsersModule {}
