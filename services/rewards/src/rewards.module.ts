import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { AccountDeletedHandler } from './accounts/account-deleted.handler';
import { AdminStatsController } from './admin-stats/admin-stats.controller';
import { RewardsConfig } from './config';
import { BalanceController } from './ledger/balance.controller';
import { Ledger } from './ledger/ledger';
import { Ledger1732061000000 } from './migrations/1732061000000-ledger';
import { Earning1732061000001 } from './migrations/1732061000001-earning';
import { OfferwallModeLog } from './offerwalls/offerwall-mode-log';
import { OfferwallSettings } from './offerwalls/offerwall-settings';
import { OfferwallsController } from './offerwalls/offerwalls.controller';
import { PostbackIngestion } from './postbacks/postback-ingestion';
import { PostbacksController } from './postbacks/postbacks.controller';
import { WebhookTransactions } from './postbacks/webhook-transactions';
import { OfferwallEmulator } from './sandbox/offerwall-emulator';
import { SandboxController } from './sandbox/sandbox.controller';
import { SignupBonusHandler } from './signup-bonus/signup-bonus.handler';
import { Tasks } from './tasks/tasks';
import { TasksController } from './tasks/tasks.controller';

@Module({})
export class RewardsModule {
  static register(config: RewardsConfig): DynamicModule {
    // Decided before anything starts: a half-configured wall stops the service with a clear message.
    const offerwalls = OfferwallSettings.fromConfig(config);
    return {
      module: RewardsModule,
      // Global, so that the event handlers the platform module hosts can use Ledger and WebhookTransactions.
      global: true,
      imports: [
        ServicePlatformModule.forService({
          name: 'rewards',
          config,
          entities: [],
          migrations: [Ledger1732061000000, Earning1732061000001],
          eventHandlers: [SignupBonusHandler, AccountDeletedHandler],
        }),
      ],
      controllers: [BalanceController, PostbacksController, TasksController, OfferwallsController, AdminStatsController, SandboxController],
      providers: [
        { provide: OfferwallSettings, useValue: offerwalls },
        OfferwallModeLog,
        Ledger,
        Tasks,
        WebhookTransactions,
        PostbackIngestion,
        OfferwallEmulator,
      ],
      exports: [Ledger, WebhookTransactions],
    };
  }
}
