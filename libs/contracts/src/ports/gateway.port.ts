import { DataGiftGranted, GiftSummaryChanged, ProvisioningSucceeded } from '../esim/esim.events';
import { AccountDeleted, PasswordChanged, ProfileChanged } from '../identity/identity.events';
import { PurchaseEsimIssued } from '../esim/purchase-esim.events';
import { PaymentSucceeded } from '../payments/payments.events';
import { BalanceChanged, TasksCredited, TaskReversed } from '../rewards/rewards.events';
import { AutoTopupSettled } from '../esim/auto-topup.events';
import { defineServicePort } from './service-port';

/**
 * The edge calls the services' RPCs and answers none. It consumes events with a queue of its
 * own and a Redis inbox: a password change or an account deletion ends the user's sessions, and
 * the rest keep the live user view (services/gateway/src/user-view) and its streams up to date.
 */
export const GatewayPort = defineServicePort('gateway', {
  consumes: [
    PasswordChanged,
    AccountDeleted,
    // The view's three parts, each with its owner's version.
    ProfileChanged,
    BalanceChanged,
    GiftSummaryChanged,
    // What happened, for the notice on the user's open pages.
    TasksCredited,
    TaskReversed,
    ProvisioningSucceeded,
    DataGiftGranted,
    PurchaseEsimIssued,
    PaymentSucceeded,
    AutoTopupSettled,
  ],
});
