import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { IdentityConfig } from './config';
import { AdminEmailsBootstrap } from './admin/admin-emails.bootstrap';
import { IsAdminHandler } from './admin/is-admin.handler';
import { ListUsersHandler } from './admin/list-users.handler';
import { AuditLog } from './audit/audit-log';
import { PasswordHasher } from './credentials/password-hasher';
import { LoginHandler } from './login/login.handler';
import { ForgotPasswordHandler } from './password-reset/forgot-password.handler';
import { ResetPasswordHandler } from './password-reset/reset-password.handler';
import { IDENTITY_ENTITIES, IDENTITY_MIGRATIONS } from './persistence';
import { ConfirmEmailChangeHandler } from './profile/confirm-email-change.handler';
import { DeleteAccountHandler } from './profile/delete-account.handler';
import { UpdateProfileHandler } from './profile/update-profile.handler';
import { UpdateSettingsHandler } from './profile/update-settings.handler';
import { RegisterHandler } from './registration/register.handler';
import { ResendVerificationHandler } from './registration/resend-verification.handler';
import { VerificationCodes } from './registration/verification-codes';
import { VerifyEmailHandler } from './registration/verify-email.handler';
import { GetUserHandler } from './users/get-user.handler';
import { Users } from './users/users';

@Module({})
export class IdentityModule {
  static register(config: IdentityConfig): DynamicModule {
    return {
      module: IdentityModule,
      imports: [
        ServicePlatformModule.forService({ name: 'identity', config, entities: IDENTITY_ENTITIES, migrations: IDENTITY_MIGRATIONS }),
      ],
      controllers: [
        RegisterHandler,
        VerifyEmailHandler,
        ResendVerificationHandler,
        GetUserHandler,
        LoginHandler,
        ForgotPasswordHandler,
        ResetPasswordHandler,
        UpdateProfileHandler,
        ConfirmEmailChangeHandler,
        UpdateSettingsHandler,
        DeleteAccountHandler,
        IsAdminHandler,
        ListUsersHandler,
      ],
      providers: [Users, PasswordHasher, VerificationCodes, AuditLog, AdminEmailsBootstrap],
    };
  }
}
