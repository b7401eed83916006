import { Module } from '@nestjs/common';
import { CurrentUserController } from './current-user.controller';
import { RegistrationController } from './registration.controller';
import { UserViewService } from './user-view.service';

@Module({
  controllers: [RegistrationController, CurrentUserController],
  providers: [UserViewService],
  exports: [UserViewService],
})
export class AuthModule {}
