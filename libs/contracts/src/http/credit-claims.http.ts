import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { adminCreditClaimSchema, creditClaimDecisionSchema, creditClaimRequestSchema, creditClaimSchema, creditClaimsResponseSchema } from '../rewards/credit-claims';

const adminUserSchema = z.object({ id: z.string().uuid(), name: z.string(), email: z.string() });

/** `GET /api/admin/credit-claims`: open claims, the oldest first, with their user. */
export const adminCreditClaimsResponseSchema = z.object({ claims: z.array(adminCreditClaimSchema.extend({ user: adminUserSchema.nullable() })) });
export type AdminCreditClaimsResponse = z.infer<typeof adminCreditClaimsResponseSchema>;
export const creditClaimParamsSchema = z.object({ id: z.string().uuid({ error: 'No such claim.' }) });

/** Missing-credit claims (docs/earning.md, "Missing credit"). */
export const CreditClaimRoutes = {
  file: defineRoute({
    method: 'POST',
    path: '/api/credit-claims',
    reasons: ['offerwall_disabled', 'too_many_open_claims'],
    tag: 'Earning',
    auth: 'session',
    summary: 'Tell us an offer was completed and never credited; the claim waits for an admin',
    body: creditClaimRequestSchema,
    response: creditClaimSchema,
    errors: { 404: 'The wall is not enabled.', 409: 'Too many open claims (`reason: too_many_open_claims`).' },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/credit-claims',
    tag: 'Earning',
    auth: 'session',
    summary: "The user's claims, newest first, with each decision",
    response: creditClaimsResponseSchema,
  }),
  adminList: defineRoute({
    method: 'GET',
    path: '/api/admin/credit-claims',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Open missing-credit claims, the oldest first',
    response: adminCreditClaimsResponseSchema,
  }),
  decide: defineRoute({
    method: 'POST',
    path: '/api/admin/credit-claims/{id}/decision',
    reasons: ['credit_claim_not_found', 'claim_already_decided', 'account_closed', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Credit a claim through the ledger (once, whoever clicks) or reject it with a reason the user reads',
    params: creditClaimParamsSchema,
    body: creditClaimDecisionSchema,
    response: adminCreditClaimSchema,
    errors: { 404: 'No such claim.', 409: 'Already decided.' },
  }),
};
