import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { NotificationsConfig } from './config';
import { MailModule } from './mail/mail.module';
import { DeliveryResolvedEventHandler } from './operator-queue/delivery-resolved.event-handler';
import { PurchaseResolvedEventHandler } from './operator-queue/purchase-resolved.event-handler';
import { PurchaseCompletedEventHandler } from './purchases/purchase-completed.event-handler';
import { PurchaseRefundedEventHandler } from './purchases/purchase-refunded.event-handler';
import { DataGiftGrantedEventHandler } from './redemptions/data-gift-granted.event-handler';
import { EsimReadyEventHandler } from './redemptions/esim-ready.event-handler';
import { PasswordChangedEventHandler } from './password/password-changed.event-handler';
import { EmailChangedEventHandler } from './profile/email-changed.event-handler';
import { PasswordResetRequestedEventHandler } from './password/password-reset-requested.event-handler';
import { ExistingAccountSignupAttemptedEventHandler } from './signup/existing-account-signup-attempted.event-handler';
import { VerificationCodeIssuedEventHandler } from './signup/verification-code-issued.event-handler';

@Module({})
export class NotificationsModule {
  static register(config: NotificationsConfig): DynamicModule {
    return {
      module: NotificationsModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'notifications',
          config,
          entities: [],
          migrations: [],
        }),
        MailModule,
      ],
      providers: [
        VerificationCodeIssuedEventHandler,
        ExistingAccountSignupAttemptedEventHandler,
        PasswordResetRequestedEventHandler,
        PasswordChangedEventHandler,
        EmailChangedEventHandler,
        EsimReadyEventHandler,
        DataGiftGrantedEventHandler,
        DeliveryResolvedEventHandler,
        PurchaseResolvedEventHandler,
        PurchaseCompletedEventHandler,
        PurchaseRefundedEventHandler,
      ],
    };
  }
}
