import { PaymentSucceeded, StripeEventRefused } from '../payments/payments.events';
import { PaymentsRpc } from '../payments/payments.rpc';
import { PaymentsAdminRpc } from '../payments/payments-admin.rpc';
import { PurchaseResolved } from '../payments/operator.events';
import { PurchaseCompleted } from '../payments/purchase-receipt.events';
import { PurchaseRefunded } from '../payments/purchase-refund.events';
import { PurchaseEsimFailed, PurchaseEsimIssued } from '../esim/purchase-esim.events';
import { AccountDeleted } from '../identity/identity.events';
import { StripeEventAccepted } from '../webhooks/webhooks.events';
import { defineServicePort } from './service-port';

/**
 * Card purchases: Stripe PaymentIntents, the Stripe events the ingestion service accepted (and
 * those it could not apply, reported back), and the eSIM each payment buys.
 */
export const PaymentsPort = defineServicePort('payments', {
  answers: [...Object.values(PaymentsRpc), ...Object.values(PaymentsAdminRpc)],
  publishes: [PaymentSucceeded, PurchaseResolved, PurchaseCompleted, PurchaseRefunded, StripeEventRefused],
  consumes: [PurchaseEsimIssued, PurchaseEsimFailed, StripeEventAccepted, AccountDeleted],
});
