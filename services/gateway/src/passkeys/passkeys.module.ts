import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SessionsModule } from '../sessions/sessions.module';
import { PasskeySignInController } from './passkey-sign-in.controller';
import { PasskeysController } from './passkeys.controller';

/** Passkeys: managing them on the profile and signing in with one (identity verifies). */
@Module({
  imports: [AuthModule, SessionsModule, RateLimitsModule],
  controllers: [PasskeysController, PasskeySignInController],
})
export class PasskeysModule {}
