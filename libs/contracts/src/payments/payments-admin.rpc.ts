import { z } from 'zod';
import { iccidSchema } from '../http/redemption.http';
import { defineAdminRpc } from '../rpc/rpc-definition';
import { lpaCodeSchema, OPERATOR_ACTIONS, operatorQueueItemSchema, operatorQueueListRequestSchema, operatorResolutionSchema } from '../admin/operator-queue';

/** Operator actions on card purchases; the acting admin travels as meta.userId. */
export const PaymentsAdminRpc = {
  /** Paid purchases whose eSIM needs a person, oldest wait first. */
  listOperatorQueue: defineAdminRpc(
    'payments',
    'admin-list-operator-queue',
    operatorQueueListRequestSchema,
    z.object({ items: z.array(operatorQueueItemSchema) }),
  ),
  /**
   * Retries the eSIM order, records an eSIM delivered by hand, or refunds the card through Stripe
   * (our idempotency key): exactly once, whoever asks.
   */
  resolvePurchase: defineAdminRpc(
    'payments',
    'admin-resolve-purchase',
    z.object({ purchaseId: z.string().uuid(), action: z.enum(OPERATOR_ACTIONS), iccid: iccidSchema.optional(), lpaCode: lpaCodeSchema.optional() }),
    operatorResolutionSchema,
  ),
} as const;
