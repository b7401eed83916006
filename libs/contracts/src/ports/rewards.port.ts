import { ProvisioningFailed, ProvisioningSucceeded } from '../esim/esim.events';
import { AccountDeleted, AccountSignalsChanged, UserRegistered } from '../identity/identity.events';
import { RedemptionRiskAdminRpc, RedemptionRiskRpc } from '../rewards/redemption-risk';
import { CreditClaimAdminRpc, CreditClaimRpc } from '../rewards/credit-claims';
import { ReferralQualified, ReferralRpc } from '../rewards/referrals';
import { PointsReserved, RedemptionRpc } from '../rewards/redemptions';
import { BalanceChanged, OfferwallPostbackRefused, TasksCredited, TaskReversed } from '../rewards/rewards.events';
import { RewardsRpc } from '../rewards/rewards.rpc';
import { RewardsAdminRpc } from '../rewards/rewards-admin.rpc';
import { OfferwallPostbacksAccepted } from '../webhooks/webhooks.events';
import { defineServicePort } from './service-port';

export const RewardsPort = defineServicePort('rewards', {
  answers: [...Object.values(RewardsRpc), ...Object.values(RedemptionRpc), ...Object.values(RewardsAdminRpc), ...Object.values(CreditClaimRpc), ...Object.values(CreditClaimAdminRpc), ...Object.values(ReferralRpc), ...Object.values(RedemptionRiskRpc), ...Object.values(RedemptionRiskAdminRpc)],
  publishes: [TasksCredited, TaskReversed, PointsReserved, OfferwallPostbackRefused, BalanceChanged, ReferralQualified],
  consumes: [UserRegistered, AccountDeleted, AccountSignalsChanged, ProvisioningSucceeded, ProvisioningFailed, OfferwallPostbacksAccepted, ReferralQualified],
});
