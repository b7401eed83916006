import { z } from 'zod';
import { CLAIM_COUNTRIES, REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { SORT_ORDERS } from '../http/admin-users.http';
import { defineAdminRpc } from '../rpc/rpc-definition';
import { adminCursorSchema } from '../admin/admin-cursor';
import { SEARCH_IDS_MAX } from '../identity/identity-admin.rpc';
import { operatorQueueItemSchema, operatorQueueListRequestSchema } from '../admin/operator-queue';

/** What esim needs to know of a points redemption it never saw (to refund or deliver it by hand). */
export const redemptionFactsSchema = z.object({
  redemptionId: z.string().uuid(),
  userId: z.string().uuid(),
  status: z.string(),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  amountGB: z.number().int().positive(),
  points: z.number().int().positive(),
  kind: z.enum(['new', 'topup']),
  country: z.enum(CLAIM_COUNTRIES).nullable(),
  targetIccid: z.string().nullable(),
  createdAt: z.string(),
});
export type RedemptionFacts = z.infer<typeof redemptionFactsSchema>;

/** Admin reads and operator actions of rewards; the gateway's AdminGuard stands in front of them. */
export const RewardsAdminRpc = {
  /**
   * Users ordered by points, one keyset page (docs/admin.md, "The user table"): all open accounts,
   * or only `userIds` (a search's matches; ids without an account rank with 0 points).
   */
  rankByPoints: defineAdminRpc(
    'rewards',
    'admin-rank-by-points',
    z.object({
      order: z.enum(SORT_ORDERS),
      cursor: adminCursorSchema.optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000),
      userIds: z.array(z.string().uuid()).max(SEARCH_IDS_MAX).optional(),
    }),
    z.object({ ranks: z.array(z.object({ userId: z.string().uuid(), points: z.number().int() })), nextCursor: z.string().nullable() }),
  ),
  /** How many offer-wall credits each user had, and how many of them the walls reversed (a fraud signal). */
  reversalRates: defineAdminRpc(
    'rewards',
    'admin-reversal-rates',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ rates: z.array(z.object({ userId: z.string().uuid(), credits: z.number().int(), reversals: z.number().int() })) }),
  ),
  /** Points redemptions still `processing` long after their reservation: the eSIM side never picked them up. */
  listStuckRedemptions: defineAdminRpc(
    'rewards',
    'admin-list-stuck-redemptions',
    operatorQueueListRequestSchema,
    z.object({ items: z.array(operatorQueueItemSchema) }),
  ),
  getRedemptionFacts: defineAdminRpc('rewards', 'admin-get-redemption-facts', z.object({ redemptionId: z.string().uuid() }), redemptionFactsSchema),
  /** Publishes the redemption's PointsReserved again, for a redemption esim never picked up (it takes it once). */
  retryRedemption: defineAdminRpc(
    'rewards',
    'admin-retry-redemption',
    z.object({ redemptionId: z.string().uuid() }),
    z.object({ status: z.string(), retriedAt: z.string() }),
  ),
} as const;
