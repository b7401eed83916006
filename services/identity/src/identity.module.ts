import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { DataSource } from 'typeorm';
import { IdentityConfig } from './config';
import { AdminEmailsBootstrap } from './admin/admin-emails.bootstrap';
import { AuditRpcHandler } from './admin/audit.rpc-handler';
import { AuditTrail } from './admin/audit-trail';
import { AdminUsersRpcHandler } from './admin-users/admin-users.rpc-handler';
import { UserSearch } from './admin-users/user-search';
import { IsAdminRpcHandler } from './admin/is-admin.rpc-handler';
import { LocalAdminAuthority } from './admin/local-admin.authority';
import { AuditLog } from './audit/audit-log';
import { PasswordHasher } from './credentials/password-hasher';
import { LoginRpcHandler } from './login/login.rpc-handler';
import { ForgotPasswordRpcHandler } from './password-reset/forgot-password.rpc-handler';
import { PasswordResetAskedEventHandler } from './password-reset/password-reset-asked.event-handler';
import { AccountDeletedEventHandler } from './profile/account-deleted.event-handler';
import { ResetPasswordRpcHandler } from './password-reset/reset-password.rpc-handler';
import { IDENTITY_ENTITIES, IDENTITY_MIGRATIONS } from './persistence';
import { ConfirmEmailChangeRpcHandler } from './profile/confirm-email-change.rpc-handler';
import { DeleteAccountRpcHandler } from './profile/delete-account.rpc-handler';
import { UpdateProfileRpcHandler } from './profile/update-profile.rpc-handler';
import { UpdateSettingsRpcHandler } from './profile/update-settings.rpc-handler';
import { RegisterRpcHandler } from './registration/register.rpc-handler';
import { ResendVerificationRpcHandler } from './registration/resend-verification.rpc-handler';
import { VerificationCodes } from './registration/verification-codes';
import { VerifyEmailRpcHandler } from './registration/verify-email.rpc-handler';
import { GetVersionedUserRpcHandler } from './users/get-versioned-user.rpc-handler';
import { GetPublicNamesRpcHandler } from './users/get-public-names.rpc-handler';
import { GetRecipientRpcHandler } from './users/get-recipient.rpc-handler';
import { Users } from './users/users';
import { ManagePasskeysRpcHandler } from './passkeys/manage-passkeys.rpc-handler';
import { PasskeyRegistrationRpcHandler } from './passkeys/passkey-registration.rpc-handler';
import { PasskeySignInRpcHandler } from './passkeys/passkey-sign-in.rpc-handler';
import { Passkeys } from './passkeys/passkeys';
import { RelyingParty } from './passkeys/relying-party';
import { DisableTwoFactorRpcHandler } from './two-factor/disable-two-factor.rpc-handler';
import { EnableTwoFactorRpcHandler } from './two-factor/enable-two-factor.rpc-handler';
import { SecondFactor } from './two-factor/second-factor';
import { SecretBox } from './two-factor/secret-box';
import { SetupTwoFactorRpcHandler } from './two-factor/setup-two-factor.rpc-handler';
import { TwoFactorCodes } from './two-factor/two-factor-codes';
import { TwoFactorSwitch } from './two-factor/two-factor-switch';
import { VerifyTwoFactorSignInRpcHandler } from './two-factor/verify-two-factor-sign-in.rpc-handler';
import { DeviceSignals } from './referrals/device-signals';
import { LinkedAccountsRpcHandler } from './referrals/linked-accounts.rpc-handler';
import { ReferralProfileRpcHandler } from './referrals/referral-profile.rpc-handler';
import { identityRetention } from './retention/identity-retention';

import { ListMarketingRecipientsRpcHandler } from './marketing/list-marketing-recipients.rpc-handler';
import { UnsubscribeMarketingRpcHandler } from './marketing/unsubscribe-marketing.rpc-handler';
import { UnsubscribeTokens } from './marketing/unsubscribe-tokens.service';
@Module({})
export class IdentityModule {
  static register(config: IdentityConfig): DynamicModule {
    return {
      module: IdentityModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'identity',
          config,
          entities: IDENTITY_ENTITIES,
          migrations: IDENTITY_MIGRATIONS,
          retention: identityRetention(config),
          // Identity owns the admin flag: its own admin-only RPCs are checked against its table.
          adminAuthority: { inject: [DataSource], useFactory: (db: DataSource) => new LocalAdminAuthority(db) },
        }),
      ],
      controllers: [
        ListMarketingRecipientsRpcHandler,
        UnsubscribeMarketingRpcHandler,
        ReferralProfileRpcHandler,
        LinkedAccountsRpcHandler,
        RegisterRpcHandler,
        VerifyEmailRpcHandler,
        ResendVerificationRpcHandler,
        GetVersionedUserRpcHandler,
        GetRecipientRpcHandler,
        GetPublicNamesRpcHandler,
        LoginRpcHandler,
        ForgotPasswordRpcHandler,
        ResetPasswordRpcHandler,
        UpdateProfileRpcHandler,
        ConfirmEmailChangeRpcHandler,
        UpdateSettingsRpcHandler,
        DeleteAccountRpcHandler,
        IsAdminRpcHandler,
            AdminUsersRpcHandler,
        AuditRpcHandler,
        SetupTwoFactorRpcHandler,
        EnableTwoFactorRpcHandler,
        DisableTwoFactorRpcHandler,
        VerifyTwoFactorSignInRpcHandler,
        PasskeyRegistrationRpcHandler,
        PasskeySignInRpcHandler,
        ManagePasskeysRpcHandler,
      ],
      providers: [DeviceSignals, UserSearch, AuditTrail, Users, PasswordHasher, VerificationCodes, AuditLog, AdminEmailsBootstrap, PasswordResetAskedEventHandler, AccountDeletedEventHandler, TwoFactorCodes, SecretBox, SecondFactor, TwoFactorSwitch, Passkeys, RelyingParty, UnsubscribeTokens],
    };
  }
}
