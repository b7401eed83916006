import { z } from 'zod';
import { defineEvent } from '../events/event-definition';

/**
 * esim's answers to payments' PaymentSucceeded (published by esim, consumed by payments and, for
 * the issued one, the gateway's live view). Exactly one of the two per purchase.
 */

/** The eSIM of a paid purchase was issued by the provider. */
export const PurchaseEsimIssued = defineEvent(
  'esim',
  'purchase-esim-issued',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    iccid: z.string(),
    /** SGP.22 activation code, `LPA:1$<SM-DP+ address>$<matching id>`. */
    lpaCode: z.string(),
    msisdn: z.string().nullable(),
    /** PNG data URL of the LPA code. */
    qrCode: z.string(),
    /** The provider's order (transaction) id, when it reported one. */
    providerOrderId: z.string().nullable(),
    issuedAt: z.string().datetime(),
  }),
);

/**
 * The provider did not issue the eSIM: it refused (`definite`), or could not be reached after the
 * bounded retries. The payment stands; the purchase goes to manual delivery by an operator.
 */
export const PurchaseEsimFailed = defineEvent(
  'esim',
  'purchase-esim-failed',
  1,
  z.object({
    purchaseId: z.string().uuid(),
    userId: z.string().uuid(),
    /** The provider error code (unavailable, no_suitable_offer, insufficient_balance, …). */
    reason: z.string(),
    message: z.string(),
    definite: z.boolean(),
    failedAt: z.string().datetime(),
  }),
);
