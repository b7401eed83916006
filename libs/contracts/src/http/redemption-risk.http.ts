import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import {
  accountControlDecisionSchema,
  AccountStanding,
  accountStandingSchema,
  adminRedemptionAppealSchema,
  adminRedemptionReviewSchema,
  redemptionAppealRequestSchema,
  redemptionAppealSchema,
  redemptionReviewDecisionSchema,
  redemptionStandingSchema,
} from '../rewards/redemption-risk';
import { singleLineText } from './text.http';

const adminUserSchema = z.object({ id: z.string().uuid(), name: z.string(), email: z.string() });

/** `GET /api/admin/redemption-reviews`: redemptions waiting for an admin and open appeals, the oldest first, with their user. */
export const adminRedemptionRiskQueueSchema = z.object({
  reviews: z.array(adminRedemptionReviewSchema.extend({ user: adminUserSchema.nullable() })),
  appeals: z.array(adminRedemptionAppealSchema.extend({ user: adminUserSchema.nullable() })),
});
export type AdminRedemptionRiskQueue = z.infer<typeof adminRedemptionRiskQueueSchema>;

export const redemptionReviewParamsSchema = z.object({ id: z.string().uuid({ error: 'No such redemption.' }) });
export const accountParamsSchema = z.object({ id: z.string().uuid({ error: 'No such account.' }) });
export const linkedGroupParamsSchema = z.object({ id: z.string().uuid({ error: 'No such linked group.' }) });

/** An admin's decision over a linked group: different people (the link no longer counts), or a control over all its accounts. */
export const LINKED_GROUP_DECISIONS = ['not_same_person', 'pause', 'require_review', 'lift'] as const;
export const linkedGroupDecisionSchema = z.object({
  decision: z.enum(LINKED_GROUP_DECISIONS, { error: `decision must be one of ${LINKED_GROUP_DECISIONS.join(', ')}` }),
  reason: singleLineText().trim().min(3, 'Please give a reason.').max(500, 'The reason must be at most 500 characters.'),
});
export type LinkedGroupDecision = z.infer<typeof linkedGroupDecisionSchema>;
export const accountStandingsResponseSchema = z.object({ accounts: z.array(accountStandingSchema) });
export type AccountStandingsResponse = { accounts: AccountStanding[] };

/** Risk rules over redemptions: the user's standing and appeal, the admins' review queue and decisions (docs/earning.md, "Risk rules"). */
export const RedemptionRiskRoutes = {
  standing: defineRoute({
    method: 'GET',
    path: '/api/redemption-standing',
    tag: 'Redemption',
    auth: 'session',
    summary: 'Whether the user can redeem now, under review or paused, why, and their latest appeal',
    response: redemptionStandingSchema,
  }),
  appeal: defineRoute({
    method: 'POST',
    path: '/api/redemption-standing/appeal',
    reasons: ['nothing_to_appeal', 'appeal_already_open'],
    tag: 'Redemption',
    auth: 'session',
    summary: 'Ask the admins to look again at paused or reviewed redemptions',
    body: redemptionAppealRequestSchema,
    response: redemptionAppealSchema,
    errors: { 409: 'Redemptions are open (`reason: nothing_to_appeal`) or an appeal is already waiting (`reason: appeal_already_open`).' },
  }),
  adminQueue: defineRoute({
    method: 'GET',
    path: '/api/admin/redemption-reviews',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Redemptions waiting for an admin and open appeals, the oldest first',
    response: adminRedemptionRiskQueueSchema,
  }),
  decideReview: defineRoute({
    method: 'POST',
    path: '/api/admin/redemption-reviews/{id}/decision',
    reasons: ['redemption_review_not_found', 'review_already_decided', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Approve a redemption under review (it proceeds) or reject it (its points are given back), with a reason the user reads',
    params: redemptionReviewParamsSchema,
    body: redemptionReviewDecisionSchema,
    response: z.object({ redemptionId: z.string().uuid(), status: z.string() }),
    errors: { 404: 'No such redemption under review.', 409: 'Already decided.' },
  }),
  controlAccount: defineRoute({
    method: 'POST',
    path: '/api/admin/accounts/{id}/redemption-control',
    reasons: ['audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: "Pause an account's redemptions, require a review of each, or lift either, with a reason the user reads",
    params: accountParamsSchema,
    body: accountControlDecisionSchema,
    response: accountStandingsResponseSchema,
  }),
  decideLinkedGroup: defineRoute({
    method: 'POST',
    path: '/api/admin/linked-accounts/{id}/decision',
    reasons: ['linked_group_not_found', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Decide over a linked group: not the same person (the link stops counting), or pause, require review or lift for all its accounts',
    params: linkedGroupParamsSchema,
    body: linkedGroupDecisionSchema,
    response: accountStandingsResponseSchema,
    errors: { 404: 'No such linked group.' },
  }),
};
