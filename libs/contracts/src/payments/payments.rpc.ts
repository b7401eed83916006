import { z } from 'zod';
import {
  confirmEsimPurchaseRequestSchema,
  createEsimPaymentRequestSchema,
  createEsimPaymentResponseSchema,
  esimPurchaseSchema,
  paymentConfigSchema,
  purchaseConfirmationSchema,
  purchaseRefundRequestSchema,
  purchaseRefundSchema,
} from '../http/purchases.http';
import { defineRpc } from '../rpc/rpc-definition';

/** The calls payments answers. The acting user travels as meta.userId (set by the gateway's session). */
export const PaymentsRpc = {
  /** Creates the PaymentIntent for the catalogue price and the pending purchase. */
  createEsimPayment: defineRpc('payments', 'create-esim-payment', createEsimPaymentRequestSchema, createEsimPaymentResponseSchema),
  /**
   * Checks the intent with Stripe, fulfils it (once), and waits up to PURCHASE_CONFIRM_WAIT_MS for
   * the eSIM. Callers give it CONFIRM_PURCHASE_RPC_TIMEOUT_MS.
   */
  confirmEsimPurchase: defineRpc('payments', 'confirm-esim-purchase', confirmEsimPurchaseRequestSchema, purchaseConfirmationSchema),
  /** The acting user's paid purchases, newest first. */
  listEsimPurchases: defineRpc('payments', 'list-esim-purchases', z.object({}), z.object({ purchases: z.array(esimPurchaseSchema) })),
  /** A self-serve refund of the acting user's purchase (docs/payments.md, "Refunds"). */
  requestRefund: defineRpc('payments', 'request-refund', purchaseRefundRequestSchema, purchaseRefundSchema),
  /** Live or sandbox, and the publishable key the card form uses. */
  paymentConfig: defineRpc('payments', 'payment-config', z.object({}), paymentConfigSchema),
} as const;

/** Upper bound of PURCHASE_CONFIRM_WAIT_MS, so that a caller knows how long confirm may take. */
export const PURCHASE_CONFIRM_WAIT_LIMIT_MS = 15_000;
