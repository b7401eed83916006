import { CancelUnusedLineRpcHandler } from './purchase-refunds/cancel-unused-line.rpc-handler';
import { LineRefundStatesRpcHandler } from './purchase-refunds/line-refund-states.rpc-handler';
import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { AccountDeletedEventHandler } from './accounts/account-deleted.event-handler';
import { QrCodes } from './activation/qr-codes.service';
import { EsimConfig } from './config';
import { AdminGiftTallies } from './gifts/admin-gift-tallies';
import { DataGift } from './gifts/data-gift.entity';
import { GiftClaims } from './gifts/gift-claims';
import { GiftClaimsRpcHandler } from './gifts/gift-claims.rpc-handler';
import { GiftHistoryRpcHandler } from './gifts/gift-history.rpc-handler';
import { GiftSummaryAnnouncements } from './gifts/gift-summary-announcements';
import { GiftSummaryRpcHandler } from './gifts/gift-summary.rpc-handler';
import { KeepGoModule } from './keepgo/keepgo.module';
import { DataGifts1732060900000 } from './migrations/1732060900000-data-gifts';
import { KeepGoSandboxMoved1737000000000 } from './migrations/1737000000000-keepgo-sandbox-moved';
import { EsimRedemptions1732063000000 } from './migrations/1732063000000-redemptions';
import { EsimOperatorQueue1734200000000 } from './migrations/1734200000000-operator-queue';
import { EsimOwnLines1736100000000 } from './migrations/1736100000000-own-lines';
import { EsimPurchaseProvisionings1737100000000 } from './migrations/1737100000000-purchase-provisionings';
import { DeliveryResolutions } from './operator-queue/delivery-resolutions';
import { OperatorOutcomeListener } from './operator-queue/operator-outcome.listener';
import { OperatorQueueRpcHandler } from './operator-queue/operator-queue.rpc-handler';
import { PurchaseResolvedEventHandler } from './operator-queue/purchase-resolved.event-handler';
import { PROVISIONING_OUTCOME_LISTENER } from './provisioning/provisioning-outcome-listener';
import { EsimLineRecord } from './lines/esim-line.entity';
import { EsimLines } from './lines/esim-lines';
import { LinesRpcHandler } from './lines/lines.rpc-handler';
import { Provisioning } from './provisioning/provisioning.entity';
import { ProvisioningOutcomes } from './provisioning/provisioning-outcomes';
import { ProvisioningRunner } from './provisioning/provisioning-runner';
import { PROVISIONING_SETTINGS, provisioningSettings } from './provisioning/provisioning-settings';
import { ProvisioningSweeper } from './provisioning/provisioning-sweeper';
import { PointsReservedEventHandler } from './redemptions/points-reserved.event-handler';
import { PaymentSucceededEventHandler } from './purchases/payment-succeeded.event-handler';
import { PurchaseOutcomes } from './purchases/purchase-outcomes';
import { LINE_USAGE_SETTINGS, lineUsageSettings } from './wallet/line-usage-settings';
import { LineUsageRpcHandler } from './wallet/line-usage.rpc-handler';
import { LineUsageService } from './wallet/line-usage.service';
import { EsimUsageAlerts1738500000000 } from './migrations/1738500000000-usage-alerts';
import { DataAlerts } from './usage-alerts/data-alerts';
import { USAGE_ALERT_SETTINGS, usageAlertSettings } from './usage-alerts/usage-alert-settings';
import { UsageWatch } from './usage-alerts/usage-watch';
import { EsimAutoTopups1738500000002 } from './migrations/1738500000002-auto-topups';
import { EsimAutoTopupCapped1739100000000 } from './migrations/1739100000000-auto-topup-capped';
import { EsimCancelledLines1739200000000 } from './migrations/1739200000000-cancelled-lines';
import { AutoTopups } from './auto-topup/auto-topups';
import { AutoTopupRpcHandler } from './auto-topup/auto-topup.rpc-handler';
import { esimRetention } from './retention/esim-retention';
import { EsimLateWrites1739500000000 } from './migrations/1739500000000-late-writes-of-deleted-accounts';

@Module({})
export class EsimModule {
  static register(config: EsimConfig): DynamicModule {
    return {
      module: EsimModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'esim',
          config,
          retention: esimRetention(config),
          entities: [DataGift, Provisioning, EsimLineRecord],
          migrations: [DataGifts1732060900000, EsimRedemptions1732063000000, EsimOperatorQueue1734200000000, EsimOwnLines1736100000000, KeepGoSandboxMoved1737000000000, EsimPurchaseProvisionings1737100000000, EsimUsageAlerts1738500000000, EsimAutoTopups1738500000002, EsimAutoTopupCapped1739100000000, EsimCancelledLines1739200000000, EsimLateWrites1739500000000],
        }),
        KeepGoModule.register(config),
      ],
      controllers: [GiftSummaryRpcHandler, GiftClaimsRpcHandler, GiftHistoryRpcHandler, LinesRpcHandler, LineUsageRpcHandler, OperatorQueueRpcHandler, AutoTopupRpcHandler, CancelUnusedLineRpcHandler, LineRefundStatesRpcHandler],
      providers: [
        AccountDeletedEventHandler,
        DeliveryResolutions,
        OperatorOutcomeListener,
        { provide: PROVISIONING_OUTCOME_LISTENER, useExisting: OperatorOutcomeListener },
        PurchaseResolvedEventHandler,
        QrCodes,
        { provide: PROVISIONING_SETTINGS, useValue: provisioningSettings(config) },
        ProvisioningOutcomes,
        ProvisioningRunner,
        ProvisioningSweeper,
        EsimLines,
        GiftClaims,
        GiftSummaryAnnouncements,
        AdminGiftTallies,
        PointsReservedEventHandler,
        PaymentSucceededEventHandler,
        PurchaseOutcomes,
        { provide: LINE_USAGE_SETTINGS, useValue: lineUsageSettings(config) },
        LineUsageService,
        { provide: USAGE_ALERT_SETTINGS, useValue: usageAlertSettings(config) },
        DataAlerts,
        AutoTopups,
        UsageWatch,
      ],
    };
  }
}
