import { Module } from '@nestjs/common';
import { PushSender } from './push-sender';
import { PushSubscriptions } from './push-subscriptions';
import { PushSubscriptionsRpcHandler } from './push-subscriptions.rpc-handler';
import { VapidKeys } from './vapid-keys';

/** Web Push: the users' browser subscriptions, the VAPID keys, and sending (docs/wallet.md, "Web Push"). */
@Module({
  controllers: [PushSubscriptionsRpcHandler],
  providers: [VapidKeys, PushSubscriptions, PushSender],
  exports: [PushSender],
})
export class PushModule {}
