import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { WebhooksConfig } from './config';
import { Webhooks1733300000001 } from './migrations/1733300000001-webhooks';
import { WebhooksStripeEvents1735300000000 } from './migrations/1735300000000-stripe-events';
import { WebhooksStripeRefusals1735400000000 } from './migrations/1735400000000-stripe-refusals';
import { WebhooksRefusedDeliveries1735900000000 } from './migrations/1735900000000-refused-deliveries';
import { OfferwallModeLog } from './offerwalls/offerwall-mode-log';
import { OfferwallSettings } from './offerwalls/offerwall-settings';
import { OfferwallsRpcHandler } from './offerwalls/offerwalls.rpc-handler';
import { OfferwallPostbackRefusedEventHandler } from './postbacks/offerwall-postback-refused.event-handler';
import { PostbackIngestion } from './postbacks/postback-ingestion.service';
import { PostbacksController } from './postbacks/postbacks.controller';
import { RefusedDeliveriesPruner } from './refused-deliveries/refused-deliveries-pruner.service';
import { RefusedDeliveryGate } from './refused-deliveries/refused-delivery-gate.service';
import { WebhookTransaction } from './postbacks/webhook-transaction.entity';
import { WebhookTransactions } from './postbacks/webhook-transactions.service';
import { StripeEventRefusedEventHandler } from './stripe/stripe-event-refused.event-handler';
import { StripeWebhookController } from './stripe/stripe-webhook.controller';
import { StripeWebhookIngestion } from './stripe/stripe-webhook-ingestion.service';
import { StripeWebhookSettings } from './stripe/stripe-webhook-settings';
import { AccountDeletedEventHandler } from './users/account-deleted.event-handler';
import { RegisteredUser } from './users/registered-user.entity';
import { RegisteredUsers } from './users/registered-users.service';
import { UserRegisteredEventHandler } from './users/user-registered.event-handler';

/** The ingestion service: provider callbacks in, accepted postbacks and Stripe events out (through its outbox), the consumers' refusals back onto the deliveries. */
import { webhooksRetention } from './retention/webhooks-retention';

@Module({})
export class WebhooksModule {
  static register(config: WebhooksConfig): DynamicModule {
    // Decided before anything starts: a half-configured wall stops the service with a clear message.
    const offerwalls = OfferwallSettings.fromConfig(config);
    return {
      module: WebhooksModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'webhooks',
          config,
          retention: webhooksRetention(config),
          entities: [WebhookTransaction, RegisteredUser],
          migrations: [Webhooks1733300000001, WebhooksStripeEvents1735300000000, WebhooksStripeRefusals1735400000000, WebhooksRefusedDeliveries1735900000000],
        }),
      ],
      controllers: [PostbacksController, StripeWebhookController, OfferwallsRpcHandler],
      providers: [
        { provide: OfferwallSettings, useValue: offerwalls },
        { provide: StripeWebhookSettings, useValue: StripeWebhookSettings.fromConfig(config) },
        OfferwallModeLog,
        WebhookTransactions,
        RefusedDeliveryGate,
        RefusedDeliveriesPruner,
        RegisteredUsers,
        PostbackIngestion,
        StripeWebhookIngestion,
        UserRegisteredEventHandler,
        AccountDeletedEventHandler,
        OfferwallPostbackRefusedEventHandler,
        StripeEventRefusedEventHandler,
      ],
    };
  }
}
