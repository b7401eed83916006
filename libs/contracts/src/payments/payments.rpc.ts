import { z } from 'zod';
import {
  confirmEsimPurchaseRequestSchema,
  createEsimPaymentRequestSchema,
  createEsimPaymentResponseSchema,
  esimPurchaseSchema,
  paymentConfigSchema,
  purchaseConfirmationSchema,
} from '../http/purchases.http';
import { defineRpc } from '../rpc/rpc-definition';

/** What a provider-facing endpoint answers: the status and JSON body the caller gets as they are. */
export const providerAnswerSchema = z.object({ httpStatus: z.number().int(), body: z.unknown() });
export type ProviderAnswer = z.infer<typeof providerAnswerSchema>;

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
  /** Live or sandbox, and the publishable key the card form uses. */
  paymentConfig: defineRpc('payments', 'payment-config', z.object({}), paymentConfigSchema),
  /**
   * Sandbox only: a publishable-key request of the browser to the Stripe emulator (retrieve an
   * intent by its client secret, confirm it with a test card), relayed by the gateway.
   */
  sandboxStripe: defineRpc(
    'payments',
    'sandbox-stripe',
    z.object({
      method: z.enum(['GET', 'POST']),
      /** The path after the emulator's base, e.g. `/v1/payment_intents/pi_123/confirm`. */
      path: z.string().max(300),
      /** Query and body parameters, as Stripe.js sends them (form brackets already nested). */
      params: z.record(z.string(), z.unknown()),
      authorization: z.string().max(500).nullable(),
    }),
    providerAnswerSchema,
  ),
} as const;

/** Upper bound of PURCHASE_CONFIRM_WAIT_MS, so that a caller knows how long confirm may take. */
export const PURCHASE_CONFIRM_WAIT_LIMIT_MS = 15_000;
