import { Module } from '@nestjs/common';
import { CurrentUserController } from './current-user.controller';
import { LoginController } from './login.controller';
import { PasswordResetController } from './password-reset.controller';
import { RegistrationController } from './registration.controller';
import { UserViewService } from './user-view.service';

@Module({
  controllers: [RegistrationController, CurrentUserController, LoginController, PasswordResetController],
  providers: [UserViewService],
  exports: [UserViewService],
})
export class AuthModule {}
