import { z } from 'zod';
import { CLAIM_COUNTRIES, REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { redeemCommandSchema } from '../esim/esim.rpc';
import { redemptionViewSchema } from '../esim/redemption-view';
import { defineEvent } from '../events/event-definition';
import { pointsStatementSchema, PURCHASE_TYPES } from '../http/redemption.http';
import { defineRpc } from '../rpc/rpc-definition';

/**
 * The user's points for a plan are reserved in the ledger (reference = redemptionId); esim now
 * provisions it: a new eSIM in `country`, or a top-up of `iccid`.
 */
export const PointsReserved = defineEvent(
  'rewards',
  'points-reserved',
  1,
  z.object({
    redemptionId: z.string().uuid(),
    userId: z.string().uuid(),
    planTier: z.enum(REDEEMABLE_PLAN_TIERS),
    amountGB: z.number().int().positive(),
    points: z.number().int().positive(),
    purchaseType: z.enum(PURCHASE_TYPES),
    country: z.enum(CLAIM_COUNTRIES).nullable(),
    iccid: z.string().nullable(),
    reservedAt: z.string().datetime(),
  }),
);

/** Opaque paging cursor of the points statement: the position of the last entry seen. */
export const statementCursorSchema = z.string().regex(/^\d{1,18}$/, 'before must be a cursor from a previous page');
export const STATEMENT_PAGE_MAX = 100;
export const STATEMENT_PAGE_DEFAULT = 50;

export const RedemptionRpc = {
  /**
   * The acting user (meta.userId) spends points on a plan: in one transaction the redemption is
   * recorded (unique per user + key), its points reserved and PointsReserved published. 409
   * `insufficient_points` (nothing written); the same key again answers the same redemption.
   */
  redeemPoints: defineRpc('rewards', 'redeem-points', redeemCommandSchema, redemptionViewSchema),
  /** A redemption of the acting user (meta.userId). */
  getRedemption: defineRpc('rewards', 'get-redemption', z.object({ redemptionId: z.string().uuid() }), redemptionViewSchema),
  /** Every redemption of the acting user (meta.userId), newest first, for their data export. */
  listRedemptions: defineRpc('rewards', 'list-redemptions', z.object({}), z.object({ redemptions: z.array(redemptionViewSchema) })),
  /** Every ledger movement of the acting user (meta.userId), newest first, one page at a time. */
  getPointsStatement: defineRpc(
    'rewards',
    'get-points-statement',
    z.object({
      before: statementCursorSchema.optional(),
      limit: z.number().int().min(1).max(STATEMENT_PAGE_MAX).default(STATEMENT_PAGE_DEFAULT),
    }),
    pointsStatementSchema,
  ),
} as const;
