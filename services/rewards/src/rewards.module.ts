import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { AccountDeletedEventHandler } from './accounts/account-deleted.event-handler';
import { AdminStatsRpcHandler } from './admin-stats/admin-stats.rpc-handler';
import { RewardsConfig } from './config';
import { BalanceRpcHandler } from './ledger/balance.rpc-handler';
import { Ledger } from './ledger/ledger';
import { Ledger1732061000000 } from './migrations/1732061000000-ledger';
import { Earning1732061000001 } from './migrations/1732061000001-earning';
import { OfferwallModeLog } from './offerwalls/offerwall-mode-log';
import { OfferwallSettings } from './offerwalls/offerwall-settings';
import { OfferwallsRpcHandler } from './offerwalls/offerwalls.rpc-handler';
import { PostbackIngestion } from './postbacks/postback-ingestion';
import { PostbacksRpcHandler } from './postbacks/postbacks.rpc-handler';
import { WebhookTransactions } from './postbacks/webhook-transactions';
import { OfferwallEmulator } from './sandbox/offerwall-emulator';
import { SandboxRpcHandler } from './sandbox/sandbox.rpc-handler';
import { SignupBonusEventHandler } from './signup-bonus/signup-bonus.event-handler';
import { Tasks } from './tasks/tasks';
import { TasksRpcHandler } from './tasks/tasks.rpc-handler';

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
          eventHandlers: [SignupBonusEventHandler, AccountDeletedEventHandler],
        }),
      ],
      controllers: [BalanceRpcHandler, PostbacksRpcHandler, TasksRpcHandler, OfferwallsRpcHandler, AdminStatsRpcHandler, SandboxRpcHandler],
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
