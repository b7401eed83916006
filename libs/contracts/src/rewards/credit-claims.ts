import { z } from 'zod';
import { singleLineText, text } from '../http/text.http';
import { defineAdminRpc, defineRpc } from '../rpc/rpc-definition';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';

/**
 * Missing-credit claims (docs/earning.md, "Missing credit"): "I completed an offer and got
 * nothing". The user files one for a wall; an admin credits it (through the ledger, once: the
 * transfer's reference is the claim's id) or rejects it with a reason the user reads.
 */
export const CREDIT_CLAIM_STATUSES = ['open', 'credited', 'rejected'] as const;
export type CreditClaimStatus = (typeof CREDIT_CLAIM_STATUSES)[number];

/**
 * What the product tells before a claim: how long a wall may take to credit (the walls credit most
 * offers within minutes; app installs and games wait for the advertiser's confirmation), and where
 * the wall's own support is (each wall also has a Help link inside its page).
 */
export const WALL_CLAIM_GUIDE: Readonly<Record<(typeof OFFERWALL_IDS)[number], { name: string; creditWithinHours: number; supportUrl: string }>> = {
  rapidoreach: { name: 'RapidoReach', creditWithinHours: 24, supportUrl: 'https://www.rapidoreach.com' },
  cpx: { name: 'CPX Research', creditWithinHours: 24, supportUrl: 'https://www.cpx-research.com' },
  bitlabs: { name: 'BitLabs', creditWithinHours: 24, supportUrl: 'https://www.bitlabs.ai' },
  lootably: { name: 'Lootably', creditWithinHours: 72, supportUrl: 'https://www.lootably.com' },
  torox: { name: 'Torox', creditWithinHours: 72, supportUrl: 'https://www.torox.io' },
};

/** The most points an admin may credit for one claim (a redemption's worth: more is a wall's job). */
export const CLAIM_MAX_POINTS = 1000;
/** Open claims one user may have at once. */
export const OPEN_CLAIMS_PER_USER = 5;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'completedOn must be a date (YYYY-MM-DD)');

/** `POST /api/credit-claims`: the wall, the offer's name and the day it was done. */
export const creditClaimRequestSchema = z.object({
  wall: z.enum(OFFERWALL_IDS, { error: `wall must be one of ${OFFERWALL_IDS.join(', ')}` }),
  offerName: singleLineText().trim().min(2, 'Please give the offer’s name.').max(200, 'The offer’s name must be at most 200 characters.'),
  completedOn: isoDate,
  note: text().trim().max(1000, 'The note must be at most 1000 characters.').optional(),
});
export type CreditClaimRequest = z.infer<typeof creditClaimRequestSchema>;

export const creditClaimSchema = z.object({
  id: z.string().uuid(),
  wall: z.enum(OFFERWALL_IDS),
  /** The user's id at that wall (what its support asks for). */
  wallUserId: z.string(),
  offerName: z.string(),
  completedOn: z.string(),
  note: z.string().nullable(),
  status: z.enum(CREDIT_CLAIM_STATUSES),
  /** Credited points (status credited). */
  points: z.number().int().nullable(),
  /** Why it was rejected, in the admin's words (status rejected). */
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type CreditClaim = z.infer<typeof creditClaimSchema>;
export const creditClaimsResponseSchema = z.object({ claims: z.array(creditClaimSchema) });
export type CreditClaimsResponse = z.infer<typeof creditClaimsResponseSchema>;

/** An admin's decision: credit `points`, or reject with a reason the user reads. */
export const creditClaimDecisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('credit'), points: z.number({ error: 'points must be a number' }).int().min(1, 'points must be at least 1').max(CLAIM_MAX_POINTS, `points must be at most ${CLAIM_MAX_POINTS}`) }),
  z.object({ decision: z.literal('reject'), reason: singleLineText().trim().min(3, 'Please give the user a reason.').max(500, 'The reason must be at most 500 characters.') }),
], { error: 'decision must be credit or reject' });
export type CreditClaimDecision = z.infer<typeof creditClaimDecisionSchema>;

export const adminCreditClaimSchema = creditClaimSchema.extend({ userId: z.string().uuid(), decidedBy: z.string().uuid().nullable() });
export type AdminCreditClaim = z.infer<typeof adminCreditClaimSchema>;

/** The user's own claims (the acting user) and filing one; the gateway adds the user's id at the wall. */
export const CreditClaimRpc = {
  file: defineRpc('rewards', 'file-credit-claim', creditClaimRequestSchema.extend({ wallUserId: z.string().min(1).max(300) }), creditClaimSchema),
  list: defineRpc('rewards', 'list-credit-claims', z.object({}), creditClaimsResponseSchema),
} as const;

/** The operator queue's claims and the two decisions; the gateway's AdminGuard stands before them. */
export const CreditClaimAdminRpc = {
  listOpen: defineAdminRpc('rewards', 'admin-list-credit-claims', z.object({ limit: z.number().int().min(1).max(500) }), z.object({ claims: z.array(adminCreditClaimSchema) })),
  decide: defineAdminRpc('rewards', 'admin-decide-credit-claim', z.object({ claimId: z.string().uuid() }).and(creditClaimDecisionSchema), adminCreditClaimSchema),
} as const;
