import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { UserViewService } from '../auth/user-view.service';
import { SessionsModule } from '../sessions/sessions.module';
import { BalanceChangedEventHandler } from './balance-changed.event-handler';
import { DataGiftGrantedEventHandler } from './data-gift-granted.event-handler';
import { AutoTopupSettledEventHandler } from './auto-topup-settled.event-handler';
import { GiftSummaryChangedEventHandler } from './gift-summary-changed.event-handler';
import { LiveAnnouncer } from './live-announcer';
import { LiveHub } from './live-hub';
import { LiveStreamController } from './live-stream.controller';
import { PaymentSucceededEventHandler } from './payment-succeeded.event-handler';
import { ProfileChangedEventHandler } from './profile-changed.event-handler';
import { ProvisioningSucceededEventHandler } from './provisioning-succeeded.event-handler';
import { StaleAfterWriteInterceptor } from './stale-after-write.interceptor';
import { PurchaseEsimIssuedEventHandler } from './purchase-esim-issued.event-handler';
import { TaskReversedEventHandler } from './task-reversed.event-handler';
import { TasksCreditedEventHandler } from './tasks-credited.event-handler';
import { UserViewCache } from './user-view-cache';

/**
 * The live user view (docs/live-view.md): the read model in Redis that GET /api/user answers
 * from, the events that keep it current, and the server-sent event streams of the open pages.
 */
@Module({
  imports: [SessionsModule],
  controllers: [LiveStreamController],
  providers: [
    UserViewCache,
    UserViewService,
    LiveAnnouncer,
    LiveHub,
    { provide: APP_INTERCEPTOR, useClass: StaleAfterWriteInterceptor },
    ProfileChangedEventHandler,
    BalanceChangedEventHandler,
    GiftSummaryChangedEventHandler,
    TasksCreditedEventHandler,
    TaskReversedEventHandler,
    ProvisioningSucceededEventHandler,
    DataGiftGrantedEventHandler,
    AutoTopupSettledEventHandler,
    PurchaseEsimIssuedEventHandler,
    PaymentSucceededEventHandler,
  ],
  exports: [UserViewService, UserViewCache, LiveHub],
})
export class UserViewModule {}
