import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { AccountDeletedEventHandler } from './accounts/account-deleted.event-handler';
import { NotificationsConfig } from './config';
import { MailModule } from './mail/mail.module';
import { SentEmails1739000000000 } from './migrations/1739000000000-sent-emails';
import { SentEmailsRpcHandler } from './sent-emails/sent-emails.rpc-handler';
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
import { LineDataLowEventHandler } from './usage-alerts/line-data-low.event-handler';
import { NotificationsWebPush1738500000001 } from './migrations/1738500000001-web-push';
import { PushModule } from './push/push.module';
import { MarketingDigests1739100000001 } from './migrations/1739100000001-marketing-digests';
import { MarketingDigest } from './marketing/marketing-digest.service';
import { MarketingDigestJob } from './marketing/marketing-digest.job';
import { AccountNotices } from './notices/account-notices.service';
import { AutoTopupSettledEventHandler } from './auto-topup/auto-topup-settled.event-handler';

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
          migrations: [NotificationsWebPush1738500000001, SentEmails1739000000000, MarketingDigests1739100000001],
        }),
        MailModule,
        PushModule,
      ],
      controllers: [SentEmailsRpcHandler],
      providers: [
        AccountNotices,
        MarketingDigest,
        MarketingDigestJob,
        AccountDeletedEventHandler,
        VerificationCodeIssuedEventHandler,
        ExistingAccountSignupAttemptedEventHandler,
        PasswordResetRequestedEventHandler,
        PasswordChangedEventHandler,
        EmailChangedEventHandler,
        EsimReadyEventHandler,
        DataGiftGrantedEventHandler,
        DeliveryResolvedEventHandler,
        PurchaseResolvedEventHandler,
        LineDataLowEventHandler,
        AutoTopupSettledEventHandler,
        PurchaseCompletedEventHandler,
        PurchaseRefundedEventHandler,
      ],
    };
  }
}
