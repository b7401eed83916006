import { z } from 'zod';
import { defineAdminRpc } from '../rpc/rpc-definition';
import { lpaCodeSchema, OPERATOR_ACTIONS, operatorQueueItemSchema, operatorQueueListRequestSchema, operatorResolutionSchema } from '../admin/operator-queue';
import { redemptionFactsSchema } from '../rewards/rewards-admin.rpc';
import { iccidSchema } from '../http/redemption.http';

/** Admin reads and operator actions of esim; the acting admin travels as meta.userId. */
export const EsimAdminRpc = {
  /** Lists one page of lines through the EsimProvider port: the supplier connection test. */
  testProvider: defineAdminRpc(
    'esim',
    'admin-test-provider',
    z.object({}),
    z.object({ ok: z.boolean(), mode: z.enum(['sandbox', 'live']), total: z.number().int().nullable(), message: z.string() }),
  ),
  /** Deliveries (points redemptions and gift claims) that need a person, oldest wait first. */
  listOperatorQueue: defineAdminRpc(
    'esim',
    'admin-list-operator-queue',
    operatorQueueListRequestSchema,
    z.object({ items: z.array(operatorQueueItemSchema) }),
  ),
  /** Which of these redemptions esim has a delivery for, and its status. */
  provisioningStatuses: defineAdminRpc(
    'esim',
    'admin-provisioning-statuses',
    z.object({ redemptionIds: z.array(z.string().uuid()).max(500) }),
    z.object({ statuses: z.array(z.object({ redemptionId: z.string().uuid(), status: z.string() })) }),
  ),
  /**
   * Retries, records a delivery made by hand, or refunds (points released, gift claimable again) a
   * delivery waiting for a person: exactly once, whoever asks. `facts` (from rewards) stand for a
   * points redemption esim never received.
   */
  resolveRedemption: defineAdminRpc(
    'esim',
    'admin-resolve-redemption',
    z.object({
      redemptionId: z.string().uuid(),
      source: z.enum(['points', 'gift']),
      action: z.enum(OPERATOR_ACTIONS),
      iccid: iccidSchema.optional(),
      lpaCode: lpaCodeSchema.optional(),
      facts: redemptionFactsSchema.optional(),
    }),
    operatorResolutionSchema,
  ),
} as const;
