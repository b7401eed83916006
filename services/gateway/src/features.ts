import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { CaptchaModule } from './captcha/captcha.module';
import { CreditClaimsModule } from './credit-claims/credit-claims.module';
import { DataExportModule } from './data-export/data-export.module';
import { DevicesModule } from './devices/devices.module';
import { EmailPreferencesModule } from './email-preferences/email-preferences.module';
import { DocsModule } from './docs/docs.module';
import { OfferwallsModule } from './offerwalls/offerwalls.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { PlansModule } from './plans/plans.module';
import { PurchasesModule } from './purchases/purchases.module';
import { ReferralsModule } from './referrals/referrals.module';
import { PushModule } from './push/push.module';
import { RedemptionsModule } from './redemptions/redemptions.module';
import { TasksModule } from './tasks/tasks.module';
import { TwoFactorModule } from './two-factor/two-factor.module';
import { UsersModule } from './users/users.module';
import { WalletModule } from './wallet/wallet.module';

/** The gateway's feature modules: one line per feature folder. */
export const FEATURE_MODULES = [
  AuthModule,
  UsersModule,
  DataExportModule,
  TwoFactorModule,
  PasskeysModule,
  AdminModule,
  CaptchaModule,
  TasksModule,
  CreditClaimsModule,
  ReferralsModule,
  OfferwallsModule,
  PlansModule,
  PurchasesModule,
  RedemptionsModule,
  WalletModule,
  PushModule,
  DevicesModule,
  EmailPreferencesModule,
  DocsModule,
];
