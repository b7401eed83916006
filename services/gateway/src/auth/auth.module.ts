import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CurrentUserController } from './current-user.controller';
import { LocalStrategy } from './local.strategy';
import { LoginController } from './login.controller';
import { PasswordResetController } from './password-reset.controller';
import { RegistrationController } from './registration.controller';
import { UserViewService } from './user-view.service';

/** Sign-up, sign-in (passport's local strategy; sessions/ holds its session serializer), resets. */
@Module({
  imports: [PassportModule],
  controllers: [RegistrationController, CurrentUserController, LoginController, PasswordResetController],
  providers: [UserViewService, LocalStrategy],
  exports: [UserViewService],
})
export class AuthModule {}
