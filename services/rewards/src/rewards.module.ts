import { DynamicModule, Module } from '@nestjs/common';
import { ServicePlatformModule } from '@esim/platform';
import { AccountDeletedEventHandler } from './accounts/account-deleted.event-handler';
import { PointsRank } from './admin-points/points-rank';
import { PointsRankRpcHandler } from './admin-points/points-rank.rpc-handler';
import { AdminStatsRpcHandler } from './admin-stats/admin-stats.rpc-handler';
import { ReversalRatesRpcHandler } from './admin-stats/reversal-rates.rpc-handler';
import { CreditClaimEntity } from './credit-claims/credit-claim.entity';
import { CreditClaims } from './credit-claims/credit-claims.service';
import { CreditClaimsRpcHandler } from './credit-claims/credit-claims.rpc-handler';
import { RewardsConfig } from './config';
import { CreditHoldPolicy } from './held-credits/credit-hold.policy';
import { HeldCreditReleases } from './held-credits/held-credit-releases';
import { BalanceAnnouncements } from './ledger/balance-announcements';
import { BalanceRpcHandler } from './ledger/balance.rpc-handler';
import { Ledger } from './ledger/ledger';
import { Redemptions1732063000000 } from './migrations/1732063000000-redemptions';
import { WebhookTransactionsMoved1733300000000 } from './migrations/1733300000000-webhook-transactions-moved';
import { RewardsAdminConsole1734200000000 } from './migrations/1734200000000-admin-console';
import { RedemptionOwnLines1736100000000 } from './migrations/1736100000000-redemption-own-lines';
import { OfferwallCreditDetails1736200000001 } from './migrations/1736200000001-offerwall-credit-details';
import { CreditClaims1736300000000 } from './migrations/1736300000000-credit-claims';
import { Referrals1736300000001 } from './migrations/1736300000001-referrals';
import { TaskKindsAndPages1736400000066 } from './migrations/1736400000066-task-kinds-and-pages';
import { LedgerCarriedForward1739500000000 } from './migrations/1739500000000-ledger-carried-forward';
import { rewardsRetention } from './retention/rewards-retention';
import { RewardsLateWrites1739500000001 } from './migrations/1739500000001-late-writes-of-deleted-accounts';
import { RedemptionRisk1736400000000 } from './migrations/1736400000000-redemption-risk';
import { AccountRiskEntity } from './redemption-risk/account-risk.entity';
import { AccountSignalsChangedEventHandler } from './redemption-risk/account-signals-changed.event-handler';
import { RedemptionAppealEntity } from './redemption-risk/redemption-appeal.entity';
import { RedemptionRisk } from './redemption-risk/redemption-risk.service';
import { RedemptionRiskRpcHandler } from './redemption-risk/redemption-risk.rpc-handler';
import { RiskRules } from './redemption-risk/risk-rules.policy';
import { ReferralQualification } from './referrals/referral-qualification';
import { ReferralQualifiedEventHandler } from './referrals/referral-qualified.event-handler';
import { Referrals } from './referrals/referrals.service';
import { ReferralsRpcHandler } from './referrals/referrals.rpc-handler';
import { LEDGER_MIGRATIONS } from './migrations/ledger-migrations';
import { OperatorQueueRpcHandler } from './operator-queue/operator-queue.rpc-handler';
import { StuckRedemptions } from './operator-queue/stuck-redemptions';
import { OfferwallCredits } from './offerwall-credits/offerwall-credits.service';
import { OfferwallPostbacksAcceptedEventHandler } from './offerwall-credits/offerwall-postbacks-accepted.event-handler';
import { ProvisioningFailedEventHandler } from './redemptions/provisioning-failed.event-handler';
import { ProvisioningSucceededEventHandler } from './redemptions/provisioning-succeeded.event-handler';
import { Redemption } from './redemptions/redemption.entity';
import { Redemptions } from './redemptions/redemptions';
import { RedemptionsRpcHandler } from './redemptions/redemptions.rpc-handler';
import { PointsStatements } from './statement/points-statement';
import { PointsStatementRpcHandler } from './statement/points-statement.rpc-handler';
import { SignupBonusEventHandler } from './signup-bonus/signup-bonus.event-handler';
import { TaskEntity } from './tasks/task.entity';
import { Tasks } from './tasks/tasks';
import { TasksRpcHandler } from './tasks/tasks.rpc-handler';

@Module({})
export class RewardsModule {
  static register(config: RewardsConfig): DynamicModule {
    return {
      module: RewardsModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'rewards',
          config,
          entities: [Redemption, TaskEntity, CreditClaimEntity, AccountRiskEntity, RedemptionAppealEntity],
          migrations: [
            ...LEDGER_MIGRATIONS,
            Redemptions1732063000000,
            WebhookTransactionsMoved1733300000000,
            RewardsAdminConsole1734200000000,
            RedemptionOwnLines1736100000000,
            OfferwallCreditDetails1736200000001,
            CreditClaims1736300000000,
            Referrals1736300000001,
            RedemptionRisk1736400000000,
            TaskKindsAndPages1736400000066,
            LedgerCarriedForward1739500000000,
            RewardsLateWrites1739500000001,
          ],
          retention: rewardsRetention(config),
        }),
      ],
      controllers: [BalanceRpcHandler, TasksRpcHandler, AdminStatsRpcHandler, RedemptionsRpcHandler, PointsStatementRpcHandler, PointsRankRpcHandler, OperatorQueueRpcHandler, CreditClaimsRpcHandler, ReferralsRpcHandler, ReversalRatesRpcHandler, RedemptionRiskRpcHandler],
      providers: [
        PointsRank,
        RiskRules,
        RedemptionRisk,
        AccountSignalsChangedEventHandler,
        StuckRedemptions,
        CreditClaims,
        Referrals,
        ReferralQualification,
        ReferralQualifiedEventHandler,
        Ledger,
        BalanceAnnouncements,
        Tasks,
        OfferwallCredits,
        CreditHoldPolicy,
        HeldCreditReleases,
        OfferwallPostbacksAcceptedEventHandler,
        Redemptions,
        PointsStatements,
        SignupBonusEventHandler,
        AccountDeletedEventHandler,
        ProvisioningSucceededEventHandler,
        ProvisioningFailedEventHandler,
      ],
    };
  }
}
