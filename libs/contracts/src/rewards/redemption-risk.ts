import { z } from 'zod';
import { REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { singleLineText, text } from '../http/text.http';
import { defineAdminRpc, defineRpc } from '../rpc/rpc-definition';

/**
 * Risk rules over redemptions (docs/earning.md, "Risk rules"): what the fraud signals (and the
 * admins' decisions) do to an account's redemptions. Never a silent ban: the user always reads the
 * state, its reasons and how to appeal.
 */
export const RISK_REASONS = ['reversal_rate', 'disposable_email', 'linked_accounts', 'admin_paused', 'admin_review'] as const;
export type RiskReason = (typeof RISK_REASONS)[number];

/** `open`: redeems as usual; `review`: each redemption waits for an admin; `paused`: redemptions are refused until lifted. */
export const REDEMPTION_STANDING_STATES = ['open', 'review', 'paused'] as const;
export type RedemptionStandingState = (typeof REDEMPTION_STANDING_STATES)[number];

export const APPEAL_STATUSES = ['open', 'answered'] as const;

export const redemptionAppealSchema = z.object({
  id: z.string().uuid(),
  message: z.string(),
  status: z.enum(APPEAL_STATUSES),
  /** The admin's answer, which the user reads. */
  answer: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type RedemptionAppeal = z.infer<typeof redemptionAppealSchema>;

/** `GET /api/redemption-standing`: whether the user can redeem, why not, and their latest appeal. */
export const redemptionStandingSchema = z.object({
  state: z.enum(REDEMPTION_STANDING_STATES),
  reasons: z.array(z.enum(RISK_REASONS)),
  appeal: redemptionAppealSchema.nullable(),
});
export type RedemptionStanding = z.infer<typeof redemptionStandingSchema>;

/** `POST /api/redemption-standing/appeal`: the user's words to the admins. */
export const redemptionAppealRequestSchema = z.object({
  message: text().trim().min(10, 'Please tell us a little more (at least 10 characters).').max(1000, 'The message must be at most 1000 characters.'),
});
export type RedemptionAppealRequest = z.infer<typeof redemptionAppealRequestSchema>;

const adminReason = singleLineText().trim().min(3, 'Please give a reason.').max(500, 'The reason must be at most 500 characters.');

/** An admin's decision over a redemption under review: approve (it proceeds) or reject (points given back). */
export const redemptionReviewDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' }),
  reason: adminReason,
});
export type RedemptionReviewDecision = z.infer<typeof redemptionReviewDecisionSchema>;

/** An admin's decision over one account's (or a linked group's) redemptions. */
export const ACCOUNT_CONTROL_ACTIONS = ['pause', 'require_review', 'lift'] as const;
export type AccountControlAction = (typeof ACCOUNT_CONTROL_ACTIONS)[number];
export const accountControlDecisionSchema = z.object({
  action: z.enum(ACCOUNT_CONTROL_ACTIONS, { error: `action must be one of ${ACCOUNT_CONTROL_ACTIONS.join(', ')}` }),
  reason: adminReason,
});
export type AccountControlDecision = z.infer<typeof accountControlDecisionSchema>;

export const adminRedemptionReviewSchema = z.object({
  redemptionId: z.string().uuid(),
  userId: z.string().uuid(),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  amountGB: z.number().int(),
  points: z.number().int(),
  reasons: z.array(z.enum(RISK_REASONS)),
  createdAt: z.string(),
});
export type AdminRedemptionReview = z.infer<typeof adminRedemptionReviewSchema>;

export const adminRedemptionAppealSchema = redemptionAppealSchema.extend({
  userId: z.string().uuid(),
  state: z.enum(REDEMPTION_STANDING_STATES),
  reasons: z.array(z.enum(RISK_REASONS)),
});
export type AdminRedemptionAppeal = z.infer<typeof adminRedemptionAppealSchema>;

export const accountStandingSchema = z.object({ userId: z.string().uuid(), state: z.enum(REDEMPTION_STANDING_STATES), reasons: z.array(z.enum(RISK_REASONS)) });
export type AccountStanding = z.infer<typeof accountStandingSchema>;

/** The acting user's standing and appeal. */
export const RedemptionRiskRpc = {
  standing: defineRpc('rewards', 'redemption-standing', z.object({}), redemptionStandingSchema),
  appeal: defineRpc('rewards', 'appeal-redemption-standing', redemptionAppealRequestSchema, redemptionAppealSchema),
} as const;

/** The admins' review queue and decisions; the gateway's AdminGuard stands before them. */
export const RedemptionRiskAdminRpc = {
  queue: defineAdminRpc(
    'rewards',
    'admin-redemption-risk-queue',
    z.object({ limit: z.number().int().min(1).max(500) }),
    z.object({ reviews: z.array(adminRedemptionReviewSchema), appeals: z.array(adminRedemptionAppealSchema) }),
  ),
  decideReview: defineAdminRpc(
    'rewards',
    'admin-decide-redemption-review',
    redemptionReviewDecisionSchema.extend({ redemptionId: z.string().uuid() }),
    z.object({ redemptionId: z.string().uuid(), status: z.string() }),
  ),
  /** Pause, require review or lift for these accounts; answers their open appeals with the reason. */
  controlAccounts: defineAdminRpc(
    'rewards',
    'admin-control-redemptions',
    accountControlDecisionSchema.extend({ userIds: z.array(z.string().uuid()).min(1).max(100) }),
    z.object({ accounts: z.array(accountStandingSchema) }),
  ),
  standings: defineAdminRpc(
    'rewards',
    'admin-redemption-standings',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ accounts: z.array(accountStandingSchema) }),
  ),
} as const;
