import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { NotificationsConfig } from './config';
import { MailModule } from './mail/mail.module';
import { PasswordChangedHandler } from './password/password-changed.handler';
import { PasswordResetRequestedHandler } from './password/password-reset-requested.handler';
import { ExistingAccountSignupAttemptedHandler } from './signup/existing-account-signup-attempted.handler';
import { VerificationCodeIssuedHandler } from './signup/verification-code-issued.handler';

@Module({})
export class NotificationsModule {
  static register(config: NotificationsConfig): DynamicModule {
    return {
      module: NotificationsModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'notifications',
          config,
          entities: [],
          migrations: [],
          eventHandlers: [VerificationCodeIssuedHandler, ExistingAccountSignupAttemptedHandler, PasswordResetRequestedHandler, PasswordChangedHandler],
        }),
        MailModule,
      ],
    };
  }
}
