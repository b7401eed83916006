import { z } from 'zod';
import { REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { idempotencyKeySchema, redeemRequestSchema } from '../http/redemption.http';
import { ESIM_LINE_STATUSES } from './line-status';
import { defineAdminRpc, defineRpc } from '../rpc/rpc-definition';
import { redemptionViewSchema } from './redemption-view';

/** What the user row shows about data gifts: the last successful gift and the total gifted. */
export const giftSummarySchema = z.object({
  dataGiftedGB: z.number().int(),
  iccid: z.string().nullable(),
  planTierLastChosen: z.string().nullable(),
  lastGiftedAt: z.string().nullable(),
});
export type GiftSummary = z.infer<typeof giftSummarySchema>;

/** A gift an admin granted that the user has not claimed yet. */
export const pendingGiftSchema = z.object({
  giftId: z.string().uuid(),
  amountGB: z.number().int(),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  grantedAt: z.string(),
});
export type PendingGift = z.infer<typeof pendingGiftSchema>;

/** One data gift of the user's, whatever became of it (their data export): by points or by an admin. */
export const giftRecordSchema = z.object({
  giftId: z.string().uuid(),
  source: z.enum(['points', 'admin']),
  status: z.enum(['granted', 'claimed', 'delivered', 'cancelled']),
  amountGB: z.number().int(),
  planTier: z.string(),
  grantedAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type GiftRecord = z.infer<typeof giftRecordSchema>;

/**
 * Admin gifts in GB as granted: pending (not claimed yet) plus claimed (a claim running or
 * delivered) make up what was granted. A claim uses up the whole gift, so a 5GB gift claimed for a
 * 1GB plan counts 5 GB claimed.
 */
export const adminGiftTallySchema = z.object({
  giftsGrantedGB: z.number().int(),
  giftsClaimedGB: z.number().int(),
  giftsPendingGB: z.number().int(),
});
export type AdminGiftTally = z.infer<typeof adminGiftTallySchema>;

/** Where an admin gift stands for its user: waiting to be claimed, claimed (its eSIM on the way), or delivered. */
export const ADMIN_GIFT_STATES = ['pending', 'claimed', 'delivered'] as const;
export type AdminGiftState = (typeof ADMIN_GIFT_STATES)[number];

/** One admin gift as the user's history shows it. */
export const adminGiftRecordSchema = z.object({
  giftId: z.string().uuid(),
  /** What the admin granted. */
  amountGB: z.number().int(),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  state: z.enum(ADMIN_GIFT_STATES),
  grantedAt: z.string(),
  /** Delivered: the plan it was claimed for (at most the gift's worth) and when it reached the line. */
  deliveredGB: z.number().int().nullable(),
  deliveredAt: z.string().nullable(),
});
export type AdminGiftRecord = z.infer<typeof adminGiftRecordSchema>;

export const ESIM_LINE_SOURCES = ['redeemed', 'gifted', 'bought'] as const;
/** One eSIM line the user holds (the My eSIMs wallet). */
export const esimLineSchema = z.object({
  iccid: z.string(),
  lpaCode: z.string().nullable(),
  msisdn: z.string().nullable(),
  /** The plan last delivered onto the line. */
  planTier: z.string(),
  /** How the line came to the user: the first delivery onto it. */
  source: z.enum(ESIM_LINE_SOURCES),
  /** GB delivered onto the line so far through this product. */
  totalGB: z.number().int(),
  createdAt: z.string(),
  lastDeliveredAt: z.string(),
  status: z.enum(ESIM_LINE_STATUSES),
  /** When the line was cancelled, else null. */
  cancelledAt: z.string().nullable(),
});
export type EsimLine = z.infer<typeof esimLineSchema>;

/** A redemption request with the Idempotency-Key the SPA made for the submit. */
export const redeemCommandSchema = z.object({ idempotencyKey: idempotencyKeySchema, request: redeemRequestSchema });
export type RedeemCommand = z.input<typeof redeemCommandSchema>;

/**
 * Gifts and lines. Self-service calls act for the acting user (meta.userId; 401 without one); an
 * admin call names the user it acts on by role (`recipientId`), never as `userId`.
 */
export const EsimRpc = {
  /** The acting user's gift summary. */
  getGiftSummary: defineRpc('esim', 'get-gift-summary', z.object({}), giftSummarySchema),
  /**
   * The acting user's gift summary with the version GiftSummaryChanged carries (the number of delivered gifts),
   * read in one snapshot, for the gateway's user view.
   */
  getVersionedGiftSummary: defineRpc(
    'esim',
    'get-versioned-gift-summary',
    z.object({}),
    z.object({ summary: giftSummarySchema, version: z.number().int().nonnegative() }),
  ),
  /** GB delivered to all users so far (the admin stat card). */
  /** GB delivered to all users so far (the admin stat card), and every admin gift granted, claimed and pending. */
  getGiftTotals: defineAdminRpc('esim', 'get-gift-totals', z.object({}), adminGiftTallySchema.extend({ totalDataGiftedGB: z.number().int() })),
  /** Gift summaries and admin gift tallies of many users at once (the admin user table); a user without gifts gets zeros. */
  getGiftSummaries: defineAdminRpc(
    'esim',
    'get-gift-summaries',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ summaries: z.array(giftSummarySchema.extend({ userId: z.string().uuid() }).extend(adminGiftTallySchema.shape)) }),
  ),
  /**
   * The acting user (meta.userId) claims an unclaimed admin gift that covers the plan, at no point
   * cost: 409 `no_covering_gift` without one. Idempotent per user + key.
   */
  claimGift: defineRpc('esim', 'claim-gift', redeemCommandSchema, redemptionViewSchema),
  /** A gift claim of the acting user (meta.userId), by redemption id. */
  getGiftClaim: defineRpc('esim', 'get-gift-claim', z.object({ redemptionId: z.string().uuid() }), redemptionViewSchema),
  /**
   * The acting user (meta.userId, an admin: the gateway's AdminGuard) grants `recipientId` a
   * claimable 1, 3 or 5 GB gift (the caller checked that the recipient exists).
   */
  grantGift: defineAdminRpc(
    'esim',
    'grant-gift',
    z.object({ recipientId: z.string().uuid(), planTier: z.enum(REDEEMABLE_PLAN_TIERS) }),
    pendingGiftSchema.extend({ userId: z.string().uuid(), status: z.literal('granted') }),
  ),
  /** The acting user's granted gifts not claimed yet, oldest first. */
  listPendingGifts: defineRpc('esim', 'list-pending-gifts', z.object({}), z.object({ pendingGifts: z.array(pendingGiftSchema) })),
  /** Every admin gift of the acting user, newest first: pending, claimed or delivered (the user's history). */
  listAdminGifts: defineRpc('esim', 'list-admin-gifts', z.object({}), z.object({ gifts: z.array(adminGiftRecordSchema) })),
  /** The acting user's eSIM lines, newest delivery first. */
  listLines: defineRpc('esim', 'list-lines', z.object({}), z.object({ lines: z.array(esimLineSchema) })),
  /** Every gift of the acting user, newest first, for their data export. */
  listGifts: defineRpc('esim', 'list-gifts', z.object({}), z.object({ gifts: z.array(giftRecordSchema) })),
} as const;
