import { z } from 'zod';
import { REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { defineEvent } from '../events/event-definition';
import { giftSummarySchema } from './esim.rpc';
import { PROVISIONING_KINDS, REDEMPTION_SOURCES } from './redemption-view';

const provisioningFacts = {
  provisioningId: z.string().uuid(),
  /** The redemption id: rewards' redemption for points, esim's own for a gift claim. */
  redemptionId: z.string().uuid(),
  source: z.enum(REDEMPTION_SOURCES),
  userId: z.string().uuid(),
  kind: z.enum(PROVISIONING_KINDS),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  amountGB: z.number().int().positive(),
};

/**
 * The provider delivered the data: a new line (iccid + lpaCode) or a top-up of `iccid`. Published
 * once per redemption. Rewards posts the reservation; notifications emails a new eSIM's QR. A
 * top-up of a line that is not in the redeemer's wallet (`ownLine` false) carries no lpaCode and
 * no msisdn: topping up an eSIM never hands it over.
 */
export const ProvisioningSucceeded = defineEvent(
  'esim',
  'provisioning-succeeded',
  1,
  z.object({
    ...provisioningFacts,
    iccid: z.string(),
    /** The line is in the redeemer's wallet (a new eSIM, or a top-up of their own line). Absent before it existed: not theirs. */
    ownLine: z.boolean().default(false),
    lpaCode: z.string().nullable(),
    msisdn: z.string().nullable(),
    /** The delivered data_gifts row. */
    giftId: z.string().uuid(),
    providerTransactionId: z.string().nullable(),
    completedAt: z.string().datetime(),
  }),
);

/**
 * The redemption ended without data. `refused`: the provider definitely did nothing (rewards voids
 * the reservation, a claimed gift is claimable again). `manual_transfer_required`: the provider
 * could not be reached after retries; the points stay reserved and an operator resolves it.
 */
export const ProvisioningFailed = defineEvent(
  'esim',
  'provisioning-failed',
  1,
  z.object({
    ...provisioningFacts,
    outcome: z.enum(['refused', 'manual_transfer_required']),
    /** The provider error code (line_not_found, no_refills_available, no_suitable_offer, unavailable, …). */
    reason: z.string(),
    /** For people and logs (English); the SPA words a refusal by `reason` (docs/keepgo.md). */
    message: z.string(),
    failedAt: z.string().datetime(),
  }),
);

/** An admin granted the user a claimable data gift; notifications tells the user. */
export const DataGiftGranted = defineEvent(
  'esim',
  'data-gift-granted',
  1,
  z.object({
    giftId: z.string().uuid(),
    userId: z.string().uuid(),
    amountGB: z.number().int().positive(),
    planTier: z.enum(REDEEMABLE_PLAN_TIERS),
    grantedBy: z.string().uuid(),
    grantedAt: z.string().datetime(),
  }),
);

/**
 * What the user row shows about delivered gifts changed (a delivery landed), published in the
 * transaction that delivered. `version` is the number of the user's delivered gifts, counted under
 * a per-user lock (services/esim/src/gifts/gift-summary-announcements.ts), so a higher version is
 * always a later summary.
 */
export const GiftSummaryChanged = defineEvent(
  'esim',
  'gift-summary-changed',
  1,
  z.object({
    userId: z.string().uuid(),
    summary: giftSummarySchema,
    version: z.number().int().nonnegative(),
    changedAt: z.string().datetime(),
  }),
);
