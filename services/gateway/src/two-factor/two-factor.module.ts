import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TwoFactorEnrolmentController } from './two-factor-enrolment.controller';
import { TwoFactorSignInController } from './two-factor-sign-in.controller';

/** Two-factor sign-in: enrolment on the profile and the sign-in's second step. */
@Module({
  imports: [AuthModule, SessionsModule, RateLimitsModule],
  controllers: [TwoFactorEnrolmentController, TwoFactorSignInController],
})
export class TwoFactorModule {}
