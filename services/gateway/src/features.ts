import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { CaptchaModule } from './captcha/captcha.module';
import { DevicesModule } from './devices/devices.module';
import { DocsModule } from './docs/docs.module';
import { OfferwallsModule } from './offerwalls/offerwalls.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { PlansModule } from './plans/plans.module';
import { PurchasesModule } from './purchases/purchases.module';
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
  TwoFactorModule,
  PasskeysModule,
  AdminModule,
  CaptchaModule,
  TasksModule,
  OfferwallsModule,
  PlansModule,
  PurchasesModule,
  RedemptionsModule,
  WalletModule,
  PushModule,
  DevicesModule,
  DocsModule,
];
