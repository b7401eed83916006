import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CurrentUserController } from './current-user.controller';
import { LocalStrategy } from './local.strategy';
import { LoginController } from './login.controller';
import { PasswordResetController } from './password-reset.controller';
import { RegistrationController } from './registration.controller';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UserViewModule } from '../user-view/user-view.module';

/** Sign-up, sign-in (passport's local strategy; sessions/ holds its session serializer), resets. */
@Module({
  // UserViewService (GET /api/user) lives with the read model it reads: user-view/.
  imports: [PassportModule, UserViewModule, SessionsModule, RateLimitsModule],
  controllers: [RegistrationController, CurrentUserController, LoginController, PasswordResetController],
  providers: [LocalStrategy],
  exports: [UserViewModule],
})
export class AuthModule {}
