import { z } from 'zod';
import { CLAIM_COUNTRIES, REDEEMABLE_PLAN_TIERS } from '../catalogue/plans';

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

export const REDEMPTION_STATUSES = ['processing', 'esim_activation_ready', 'completed', 'manual_transfer_required', 'failed'] as const;
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

/** One movement of the user's points (the /history statement), newest first. */
export const STATEMENT_KINDS = ['signup_bonus', 'earned', 'reversed', 'reserved', 'spent', 'released'] as const;
export const STATEMENT_STATES = ['pending', 'done', 'reversed', 'released'] as const;
export const statementEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(STATEMENT_KINDS),
  /** Signed: what this movement did to the available balance. */
  points: z.number().int(),
  state: z.enum(STATEMENT_STATES),
  provider: z.string().nullable(),
  transactionId: z.string().nullable(),
  redemptionId: z.string().uuid().nullable(),
  occurredAt: z.string(),
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;
export const pointsStatementSchema = z.object({
  entries: z.array(statementEntrySchema),
  /** Pass as `?before=` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type PointsStatement = z.infer<typeof pointsStatementSchema>;
