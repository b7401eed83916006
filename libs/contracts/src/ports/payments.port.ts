import { PaymentSucceeded } from '../payments/payments.events';
import { PaymentsRpc } from '../payments/payments.rpc';
import { PurchaseEsimFailed, PurchaseEsimIssued } from '../payments/purchase-esim.events';
import { defineServicePort } from './service-port';

/** Card purchases: Stripe PaymentIntents, the Stripe webhook and emulator, and the eSIM each payment buys. */
export const PaymentsPort = defineServicePort('payments', {
  answers: Object.values(PaymentsRpc),
  publishes: [PaymentSucceeded],
  consumes: [PurchaseEsimIssued, PurchaseEsimFailed],
});
