import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { CLAIM_COUNTRIES, REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';
import { ESIM_LINE_STATUSES } from '../esim/line-status';

/** The rule the claim page states (docs/redemption.md): digits only, 19 or 20 long, starting 89. */
export const ICCID_RULE_MESSAGE = 'ICCID must be 19-20 digits starting with 89';
export const iccidSchema = z
  .string({ error: ICCID_RULE_MESSAGE })
  .trim()
  .regex(/^89\d{17,18}$/, ICCID_RULE_MESSAGE);

/** The demo line the sandbox eSIM provider knows (advertised on the claim page in sandbox mode only). */
export const SANDBOX_DEMO_ICCID = '8900000000000000001';

export const PURCHASE_TYPES = ['new', 'existing'] as const;
export type PurchaseType = (typeof PURCHASE_TYPES)[number];

/**
 * Body of `POST /api/redeem-points` and `POST /api/gift-data` (the claim page's form). A new eSIM
 * needs a country, a top-up needs the ICCID of the line. The `Idempotency-Key` header (one per
 * submit) makes a repeated request answer the same redemption.
 */
export const redeemRequestSchema = z
  .object({
    planTier: z.enum(REDEEMABLE_PLAN_TIERS, { error: 'Please select a data plan' }),
    purchaseType: z.enum(PURCHASE_TYPES, { error: 'Please choose a new eSIM or an existing one' }),
    country: z.enum(CLAIM_COUNTRIES, { error: 'Please choose a country' }).optional(),
    iccid: iccidSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.purchaseType === 'new' && !r.country) ctx.addIssue({ code: 'custom', path: ['country'], message: 'Please choose a country' });
    if (r.purchaseType === 'existing' && !r.iccid) ctx.addIssue({ code: 'custom', path: ['iccid'], message: ICCID_RULE_MESSAGE });
  });
export type RedeemRequest = z.infer<typeof redeemRequestSchema>;

/** `Idempotency-Key` header: what the SPA makes once per submit (a UUID; any 8–128 safe characters). */
export const idempotencyKeySchema = z
  .string({ error: 'The Idempotency-Key header is required' })
  .regex(/^[A-Za-z0-9_-]{8,128}$/, 'The Idempotency-Key header must be 8-128 letters, digits, - or _');

/**
 * `pending_review`: the risk rules hold the redemption for an admin, its points reserved (docs/earning.md,
 * "Risk rules"); `rejected`: the admin refused it and the points came back.
 */
export const REDEMPTION_STATUSES = ['processing', 'esim_activation_ready', 'completed', 'manual_transfer_required', 'failed', 'pending_review', 'rejected'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

/** What the redeem and gift-data calls answer (product-decisions.md, "Redeeming: two calls, one saga"). */
export const redemptionResponseSchema = z.object({
  redemptionId: z.string().uuid(),
  amountGB: z.number().int(),
  pointsUsed: z.number().int(),
  status: z.enum(REDEMPTION_STATUSES),
  message: z.string(),
  iccid: z.string().nullable().optional(),
  lpaCode: z.string().nullable().optional(),
  /** PNG data URL of the LPA code. */
  qrCode: z.string().nullable().optional(),
  msisdn: z.string().nullable().optional(),
  giftId: z.string().uuid().nullable().optional(),
});
export type RedemptionResponse = z.infer<typeof redemptionResponseSchema>;

/** `POST /api/generate-qr`: the LPA code (or any short text) to draw; answers image/png. */
export const generateQrRequestSchema = z.object({
  data: z.string({ error: 'data is required' }).min(1, 'data is required').max(512, 'data must be at most 512 characters'),
});

/** `POST /api/admin/gift-data/{userId}`: a claimable gift of 1, 3 or 5 GB. */
export const adminGiftRequestSchema = z.object({
  planTier: z.enum(REDEEMABLE_PLAN_TIERS, { error: 'Missing selection: Please select a user and plan tier.' }),
  iccid: z.literal('admin-gifted').optional(),
});

/**
 * One movement of the user's points (the /history statement), newest first: one entry per ledger
 * transfer. `reserved` takes the points (state pending until settled, then done when spent or
 * released when given back); `spent` settles it (points 0: the reservation already took them;
 * `amount` says how many were spent); `released` gives them back. `earned` is reversed when the
 * wall took it back. The `points` of all entries sum to the balance.
 *
 * A held credit (docs/earning.md, "Held credits") is `earned` with points 0 and state pending
 * until `availableAt`; its release is an `available` entry that adds the points. A reversal of a
 * held credit takes nothing from the balance (points 0); `reason` is the wall's, where it sent one.
 * `claim_credited` is a missing-credit claim an admin accepted: `provider` is its wall and
 * `offerName` the offer the user named. `referral_bonus` is a referral's bonus (for inviting a
 * friend, or for signing up with a friend's code). `carried_forward` is the balance of the
 * movements older than the transaction retention, which it replaced (docs/accounts.md, "Retention").
 */
export const STATEMENT_KINDS = ['signup_bonus', 'earned', 'reversed', 'reserved', 'spent', 'released', 'available', 'claim_credited', 'referral_bonus', 'carried_forward'] as const;
export const STATEMENT_STATES = ['pending', 'done', 'reversed', 'released'] as const;
export const statementEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(STATEMENT_KINDS),
  /** Signed: what this movement did to the available balance. */
  points: z.number().int(),
  /** How many points the movement is about (unsigned): for `spent`, the points spent. */
  amount: z.number().int().nonnegative(),
  state: z.enum(STATEMENT_STATES),
  provider: z.string().nullable(),
  transactionId: z.string().nullable(),
  redemptionId: z.string().uuid().nullable(),
  occurredAt: z.string(),
  /** A held credit (and its release): when its points become (or became) spendable. */
  availableAt: z.string().nullable().optional(),
  /** The offer's name, where the wall sent it. */
  offerName: z.string().nullable().optional(),
  /** A reversal: the wall's reason, where it sent one. */
  reason: z.string().nullable().optional(),
  /** A reversal: whether it cancelled held points (nothing left to pay back) rather than spendable ones. */
  cancelledHeld: z.boolean().optional(),
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;
export const pointsStatementSchema = z.object({
  entries: z.array(statementEntrySchema),
  /** Pass as `?before=` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type PointsStatement = z.infer<typeof pointsStatementSchema>;

/** `GET /api/points-statement?before=<cursor>&limit=<1-100>`. */
export const pointsStatementQuerySchema = z.object({
  before: z.string().regex(/^\d{1,18}$/, 'before must be a cursor from a previous page').optional(),
  limit: z.coerce.number({ error: 'limit must be a number from 1 to 100' }).int().min(1, 'limit must be a number from 1 to 100').max(100, 'limit must be a number from 1 to 100').optional(),
});
export type PointsStatementQuery = z.infer<typeof pointsStatementQuerySchema>;

/** `POST /api/admin/gift-data/{userId}` answers the claimable gift it granted. */
export const adminGiftResponseSchema = z.object({
  giftId: z.string().uuid(),
  userId: z.string().uuid(),
  amountGB: z.number().int(),
  planTier: z.enum(REDEEMABLE_PLAN_TIERS),
  status: z.literal('granted'),
  grantedAt: z.string(),
});
export type AdminGiftResponse = z.infer<typeof adminGiftResponseSchema>;

/**
 * `GET /api/gifts`: the admin gifts the user can still claim with `POST /api/gift-data` (oldest
 * first), the GB delivered so far (the Data Gifted card), and every admin gift with where it
 * stands, newest first (the history).
 */
export const giftsResponseSchema = z.object({
  dataGiftedGB: z.number().int(),
  pendingGifts: z.array(
    z.object({ giftId: z.string().uuid(), amountGB: z.number().int(), planTier: z.enum(REDEEMABLE_PLAN_TIERS), grantedAt: z.string() }),
  ),
  gifts: z.array(
    z.object({
      giftId: z.string().uuid(),
      amountGB: z.number().int(),
      planTier: z.enum(REDEEMABLE_PLAN_TIERS),
      state: z.enum(['pending', 'claimed', 'delivered']),
      grantedAt: z.string(),
      deliveredGB: z.number().int().nullable(),
      deliveredAt: z.string().nullable(),
    }),
  ),
});
export type GiftsResponse = z.infer<typeof giftsResponseSchema>;

/** `GET /api/esim-lines`: every eSIM line the user received through redemptions and gifts. */
export const esimLinesResponseSchema = z.object({
  lines: z.array(
    z.object({
      iccid: z.string(),
      lpaCode: z.string().nullable(),
      /** PNG data URL of the LPA code, when the line has one. */
      qrCode: z.string().nullable(),
      msisdn: z.string().nullable(),
      planTier: z.string(),
      source: z.enum(['redeemed', 'gifted', 'bought']),
      totalGB: z.number().int(),
      createdAt: z.string(),
      lastDeliveredAt: z.string(),
      /** `cancelled` once deactivated at the provider for a refund (no usage, top-ups or setup). */
      status: z.enum(ESIM_LINE_STATUSES),
      cancelledAt: z.string().nullable(),
    }),
  ),
});
export type EsimLinesResponse = z.infer<typeof esimLinesResponseSchema>;

/** The headers of the two redeeming calls. */
export const redeemHeadersSchema = z.object({ 'Idempotency-Key': idempotencyKeySchema });

const REDEEM_ERRORS = {
  403: 'No live captcha mark on the session (`reason: captcha_required`): solve the captcha first. A refused top-up spends the mark. For points: redemptions paused by the risk rules (`reason: redemptions_paused`, with the reasons and an appeal).',
  409: 'The same Idempotency-Key with a different body.',
  422: "The eSIM provider refused the redemption (the points are given back). For a line outside the user's wallet every refusal reads as line not found.",
  429: 'Too many top-ups (ICCID lookups) for this account or client network: try again after Retry-After.',
} as const;

/** Redeeming points or a gift for eSIM data, and what the user holds (docs/redemption.md). */
export const RedemptionRoutes = {
  redeemPoints: defineRoute({
    method: 'POST',
    path: '/api/redeem-points',
    reasons: ['captcha_required', 'insufficient_points', 'account_closed', 'idempotency_key_reused', 'provider_refused', 'too_many_attempts', 'redemptions_paused'],
    tag: 'Redemption',
    auth: 'session',
    summary: 'Spend points on a new eSIM or a top-up',
    description: 'Waits a bounded time for the eSIM; past that the answer is `status: processing` (follow it with `GET /api/redemptions/{id}`).',
    headers: redeemHeadersSchema,
    body: redeemRequestSchema,
    response: redemptionResponseSchema,
    errors: { ...REDEEM_ERRORS, 409: `Insufficient points (\`reason: insufficient_points\`). Or: ${REDEEM_ERRORS[409]}` },
  }),
  claimGift: defineRoute({
    method: 'POST',
    path: '/api/gift-data',
    reasons: ['captcha_required', 'no_covering_gift', 'idempotency_key_reused', 'provider_refused', 'too_many_attempts'],
    tag: 'Redemption',
    auth: 'session',
    summary: 'Claim an admin data gift as a new eSIM or a top-up',
    headers: redeemHeadersSchema,
    body: redeemRequestSchema,
    response: redemptionResponseSchema,
    errors: { ...REDEEM_ERRORS, 409: `No unclaimed gift covers the plan. Or: ${REDEEM_ERRORS[409]}` },
  }),
  redemption: defineRoute({
    method: 'GET',
    path: '/api/redemptions/{id}',
    reasons: ['redemption_not_found'],
    tag: 'Redemption',
    auth: 'session',
    summary: "One of the user's redemptions (points or gift), whatever its status",
    params: z.object({ id: z.string().uuid() }),
    response: redemptionResponseSchema,
    errors: { 404: 'No such redemption of this user.' },
  }),
  generateQr: defineRoute({
    method: 'POST',
    path: '/api/generate-qr',
    reasons: ['qr_input_invalid'],
    tag: 'Redemption',
    auth: 'session',
    summary: 'The QR code of an activation (LPA) code, as a PNG image',
    body: generateQrRequestSchema,
    response: z.string().describe('PNG image'),
    responseType: 'image/png',
  }),
  pointsStatement: defineRoute({
    method: 'GET',
    path: '/api/points-statement',
    tag: 'Redemption',
    auth: 'session',
    summary: "The user's points movements, newest first, paged by cursor",
    query: pointsStatementQuerySchema,
    response: pointsStatementSchema,
  }),
  gifts: defineRoute({
    method: 'GET',
    path: '/api/gifts',
    tag: 'Redemption',
    auth: 'session',
    summary: 'Unclaimed admin gifts and the GB delivered so far',
    response: giftsResponseSchema,
  }),
  esimLines: defineRoute({
    method: 'GET',
    path: '/api/esim-lines',
    tag: 'Redemption',
    auth: 'session',
    summary: 'Every eSIM line the user received through redemptions and gifts',
    response: esimLinesResponseSchema,
  }),
  adminGift: defineRoute({
    method: 'POST',
    path: '/api/admin/gift-data/{userId}',
    reasons: ['user_not_found', 'audit_unavailable'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Grant a user a claimable 1, 3 or 5 GB gift (emails them)',
    params: z.object({ userId: z.string().uuid() }),
    body: adminGiftRequestSchema,
    response: adminGiftResponseSchema,
    errors: { 404: 'No such user (`reason: user_not_found`).' },
  }),
};
