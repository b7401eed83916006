import { z } from 'zod';
import { REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { REDEMPTION_STATUSES } from '../http/redemption.http';

/** Who pays for a redemption: the user's points (rewards) or a data gift an admin granted (esim). */
export const REDEMPTION_SOURCES = ['points', 'gift'] as const;
export type RedemptionSource = (typeof REDEMPTION_SOURCES)[number];

/** A new eSIM for a country, or a top-up of an existing line. */
export const PROVISIONING_KINDS = ['new', 'topup'] as const;
export type ProvisioningKind = (typeof PROVISIONING_KINDS)[number];

/**
 * Why a redemption ended without data: the provider's definite refusal (`line_not_found`,
 * `no_refills_available`, `no_suitable_offer`, …; the message carries the fragments the SPA maps),
 * or `manual_transfer_required` when the provider could not be reached.
 */
export const redemptionFailureSchema = z.object({ reason: z.string(), message: z.string() });
export type RedemptionFailure = z.infer<typeof redemptionFailureSchema>;

/**
 * One redemption as its owner sees it: rewards answers it for points, esim for gift claims. The
 * gateway turns it into the HTTP answer (adding the QR code of the LPA code).
 */
export const redemptionViewSchema = z.object({
  redemptionId: z.string().uuid(),
  source: z.enum(REDEMPTION_SOURCES),
  status: z.enum(REDEMPTION_STATUSES),
  kind: z.enum(PROVISIONING_KINDS),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  amountGB: z.number().int(),
  pointsUsed: z.number().int(),
  country: z.string().nullable(),
  iccid: z.string().nullable(),
  /**
   * Whether the delivered line is in the redeemer's wallet: always for a new eSIM, for a top-up
   * only when the redeemer holds the line. Only then may the view carry its activation material
   * (lpaCode, msisdn) and the full ICCID; a top-up of anyone else's line shows the data added and
   * the masked ICCID (docs/decisions.md, "Topping up someone else's eSIM").
   */
  ownLine: z.boolean(),
  lpaCode: z.string().nullable(),
  msisdn: z.string().nullable(),
  /** The data_gifts row the delivery wrote (or the admin gift that was claimed). */
  giftId: z.string().uuid().nullable(),
  failure: redemptionFailureSchema.nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type RedemptionView = z.infer<typeof redemptionViewSchema>;
