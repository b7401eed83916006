import { ProvisioningFailed, ProvisioningSucceeded } from '../esim/esim.events';
import { AccountDeleted, UserRegistered } from '../identity/identity.events';
import { PointsReserved, RedemptionRpc } from '../rewards/redemptions';
import { OfferwallPostbackRefused, TaskCredited, TaskReversed } from '../rewards/rewards.events';
import { RewardsRpc } from '../rewards/rewards.rpc';
import { OfferwallPostbackAccepted } from '../webhooks/webhooks.events';
import { defineServicePort } from './service-port';

export const RewardsPort = defineServicePort('rewards', {
  answers: [...Object.values(RewardsRpc), ...Object.values(RedemptionRpc)],
  publishes: [TaskCredited, TaskReversed, PointsReserved, OfferwallPostbackRefused],
  consumes: [UserRegistered, AccountDeleted, ProvisioningSucceeded, ProvisioningFailed, OfferwallPostbackAccepted],
});
