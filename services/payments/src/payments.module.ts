import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { PaymentsConfig } from './config';
import { Purchases1732062000000 } from './migrations/1732062000000-purchases';
import { PaymentsOperatorQueue1734200000000 } from './migrations/1734200000000-operator-queue';
import { PaymentsReconciliation1734300000000 } from './migrations/1734300000000-reconciliation';
import { PaymentReconciler } from './reconciliation/payment-reconciler';
import { StripeSandboxMoved1737000000000 } from './migrations/1737000000000-stripe-sandbox-moved';
import { PurchaseCurrency1738000000000 } from './migrations/1738000000000-purchase-currency';
import { PurchasePaymentMethod1739000000000 } from './migrations/1739000000000-purchase-payment-method';
import { PurchaseRefunds1739100000000 } from './migrations/1739100000000-purchase-refunds';
import { RefundEligibilityService } from './purchase-refunds/refund-eligibility.service';
import { RequestRefundRpcHandler } from './purchase-refunds/request-refund.rpc-handler';
import { ListRefundsRpcHandler } from './purchase-refunds/list-refunds.rpc-handler';
import { OperatorQueueRpcHandler } from './operator-queue/operator-queue.rpc-handler';
import { PurchaseResolutions } from './operator-queue/purchase-resolutions';
import { ConfirmPurchaseRpcHandler } from './purchases/confirm-purchase.rpc-handler';
import { CreatePaymentRpcHandler } from './purchases/create-payment.rpc-handler';
import { AccountDeletedEventHandler } from './accounts/account-deleted.event-handler';
import { EsimFailedEventHandler } from './purchases/esim-failed.event-handler';
import { EsimIssuedEventHandler } from './purchases/esim-issued.event-handler';
import { EsimPurchaseEntity } from './purchases/esim-purchase.entity';
import { EsimPurchasesService } from './purchases/esim-purchases.service';
import { FulfilmentService } from './purchases/fulfilment.service';
import { ListPurchasesRpcHandler } from './purchases/list-purchases.rpc-handler';
import { PaymentConfigRpcHandler } from './purchases/payment-config.rpc-handler';
import { StripeApiService } from './stripe/stripe-api.service';
import { StripeModeLog } from './stripe/stripe-mode-log';
import { STRIPE_SETTINGS, stripeSettings } from './stripe/stripe-settings';
import { StripeEventAcceptedEventHandler } from './stripe-events/stripe-event-accepted.event-handler';
import { paymentsRetention } from './retention/payments-retention';
import { PaymentsLateWrites1739500000000 } from './migrations/1739500000000-late-writes-of-deleted-accounts';

@Module({})
export class PaymentsModule {
  static register(config: PaymentsConfig): DynamicModule {
    const stripe = stripeSettings(config);
    return {
      module: PaymentsModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'payments',
          config,
          retention: paymentsRetention(config),
          entities: [EsimPurchaseEntity],
          migrations: [Purchases1732062000000, PaymentsOperatorQueue1734200000000, PaymentsReconciliation1734300000000, StripeSandboxMoved1737000000000, PurchaseCurrency1738000000000, PurchasePaymentMethod1739000000000, PurchaseRefunds1739100000000, PaymentsLateWrites1739500000000],
        }),
      ],
      controllers: [
        CreatePaymentRpcHandler,
        RequestRefundRpcHandler,
        ListRefundsRpcHandler,
        ConfirmPurchaseRpcHandler,
        ListPurchasesRpcHandler,
        PaymentConfigRpcHandler,
        OperatorQueueRpcHandler,
      ],
      providers: [
        { provide: STRIPE_SETTINGS, useValue: stripe },
        StripeApiService,
        StripeModeLog,
        EsimPurchasesService,
        RefundEligibilityService,
        PurchaseResolutions,
        FulfilmentService,
        AccountDeletedEventHandler,
        EsimIssuedEventHandler,
        EsimFailedEventHandler,
        StripeEventAcceptedEventHandler,
        PaymentReconciler,
      ],
    };
  }
}
